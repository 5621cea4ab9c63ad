/**
 * Request Changes…: sends a finished subagent's proposal back with the user's comment. The same agent
 * goes on with its context and revises the same proposal; when it is done, what it changed since the
 * comment opens as a diff against the previous proposal. The target: the task given, else the proposal
 * or review in front, else one picked among the tasks with changes waiting.
 */
import * as vscode from 'vscode';
import { readSettings } from '../configuration.js';
import type { AgentTeamHost } from '../host.js';
import { proposalUri } from '../review/proposal-uri.js';
import { showInfo } from '../notify.js';
import { pendingFiles } from '../change-summaries.js';
import { announceRun, configuredModelSetup } from './delegate-command.js';
import { pickTask } from './task-picker.js';

export async function requestChanges(host: AgentTeamHost, taskArgument?: unknown): Promise<string | undefined> {
  await host.historyLoaded;
  const taskId = typeof taskArgument === 'string' && taskArgument !== '' ? taskArgument : await chooseTask(host);
  if (taskId === undefined) return undefined;
  const task = host.taskManager.get(taskId);
  if (!task) {
    showInfo(vscode.l10n.t('There is no task {0}.', taskId));
    return undefined;
  }
  const setup = await configuredModelSetup(host);
  if (!setup) return undefined;
  const comment = await vscode.window.showInputBox({
    title: vscode.l10n.t('Request Changes: {0} ({1})', task.role, task.id),
    prompt: vscode.l10n.t('What should the {0} change? It goes on with its context and revises its proposal.', task.role),
    placeHolder: vscode.l10n.t('e.g. Keep the old name as a deprecated alias'),
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('Say what should change, or press Escape to cancel.') : undefined),
  });
  if (comment === undefined || comment.trim() === '') return undefined;
  const session = await host.engine();
  host.revisions.rememberBefore(task.id);
  const started = await session.requestChanges(
    { taskId: task.id, comment: comment.trim(), mode: 'background' },
    setup,
    readSettings(vscode.workspace.isTrusted),
  );
  announceRun(host, started.task);
  void host.taskManager
    .wait(started.task.id)
    .then((revision) => (revision.status === 'completed' ? showRevision(host, task.id, task.role) : undefined));
  return started.task.id;
}

/** Opens what the revision changed, each file against its previous proposal. */
export async function showRevision(host: AgentTeamHost, taskId: string, role: string): Promise<void> {
  const paths = host.revisions.revisedPaths(taskId);
  if (paths.length === 0) {
    showInfo(vscode.l10n.t('The {0} ({1}) finished without changing its proposal.', role, taskId));
    return;
  }
  const folder = host.folder()?.uri;
  const resources = paths.map((path): [vscode.Uri, vscode.Uri, vscode.Uri] => {
    const proposed = proposalUri({ taskId, path, side: 'proposed' });
    return [folder ? vscode.Uri.joinPath(folder, ...path.split('/')) : proposed, proposalUri({ taskId, path, side: 'previous' }), proposed];
  });
  await host.review.showRevision(taskId, resources);
}

async function chooseTask(host: AgentTeamHost): Promise<string | undefined> {
  const active = host.review.activeProposal()?.taskId;
  if (active !== undefined) return active;
  const withChanges = host.taskManager.list().filter((task) => {
    const changeSet = host.changes.get(task.id);
    return changeSet !== undefined && pendingFiles(changeSet).length > 0;
  });
  if (withChanges.length === 0) {
    showInfo(vscode.l10n.t('No proposed changes are waiting for review, so there is nothing to send back.'));
    return undefined;
  }
  if (withChanges.length === 1) return withChanges[0]!.id;
  return pickTask(withChanges, {
    title: vscode.l10n.t('Request Changes'),
    placeHolder: vscode.l10n.t('Whose proposal should change?'),
    describe: (task) => `${pendingFiles(host.changes.get(task.id)!).length} files waiting`,
  });
}
