/**
 * Resume Run: a run whose tasks were interrupted (the window closed or reloaded, the editor crashed) goes
 * on, each task from its last completed turn. From a row's Resume button, its context menu, the end
 * notification, or the palette (which offers the interrupted runs to pick from).
 */
import * as vscode from 'vscode';
import type { AgentTeamHost } from '../host.js';
import { showInfo } from '../notify.js';
import { pickTask } from './task-picker.js';

export async function resumeRun(host: AgentTeamHost, taskId?: unknown): Promise<void> {
  await host.historyLoaded;
  let runId = typeof taskId === 'string' && taskId !== '' ? taskId : undefined;
  if (runId === undefined) {
    const interrupted = host.taskManager
      .list()
      .filter((task) => task.parentId === null && host.taskManager.treeOf(task.id).some((member) => member.status === 'interrupted'));
    if (interrupted.length === 0) {
      showInfo(vscode.l10n.t('No Agent Team run was interrupted.'));
      return;
    }
    runId = await pickTask(interrupted, {
      title: vscode.l10n.t('Resume Run'),
      placeHolder: vscode.l10n.t('Pick the interrupted run to go on with'),
    });
    if (runId === undefined) return;
  }
  // A subagent's row names its run: the run is what goes on.
  const run = host.taskManager.get(runId)?.rootId ?? runId;
  await host.resumeRun(run);
}
