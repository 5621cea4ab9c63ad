/**
 * Export Trace…: a run's trace (its tree, prompts, tool calls, models, tokens and diffs) saved as Markdown
 * for a pull request, or as JSON, where the user chooses. Keys known to the window are redacted.
 */
import * as vscode from 'vscode';
import { buildRunTrace, renderTraceJson, renderTraceMarkdown } from '../../engine/index.js';
import type { AgentTeamHost } from '../host.js';
import { showInfo } from '../notify.js';
import { pickTask } from './task-picker.js';

export async function exportTrace(host: AgentTeamHost, taskArgument?: unknown): Promise<vscode.Uri | undefined> {
  await host.historyLoaded;
  const roots = host.taskManager.list().filter((task) => task.parentId === null);
  if (roots.length === 0) {
    showInfo(vscode.l10n.t('There is no run to export yet.'));
    return undefined;
  }
  const rootId =
    typeof taskArgument === 'string' && taskArgument !== ''
      ? taskArgument
      : await pickTask(roots, { title: vscode.l10n.t('Export Trace'), placeHolder: vscode.l10n.t('Which run?') });
  if (rootId === undefined || !host.taskManager.get(rootId)) return undefined;
  const folder = host.folder()?.uri;
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export the trace of run {0}', rootId),
    saveLabel: 'Export Trace',
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, `agent-team-${rootId}.md`) } : {}),
    filters: { Markdown: ['md'], JSON: ['json'] },
  });
  if (!target) return undefined;
  const trace = await buildRunTrace(host.taskManager, host.changes, rootId);
  const text = target.path.toLowerCase().endsWith('.json') ? renderTraceJson(trace) : renderTraceMarkdown(trace);
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(host.redactor.redact(text)));
  host.log.info(`Exported the trace of ${rootId} to ${target.fsPath}.`);
  showInfo(vscode.l10n.t('Exported the trace of run {0}.', rootId), {
    title: vscode.l10n.t('Open'),
    run: async () => void (await vscode.window.showTextDocument(target)),
  });
  return target;
}
