/** Stop Task, Stop All, Show Task and Clear History. Each takes a task id argument where one applies. */
import * as vscode from 'vscode';
import { isTerminal } from '../../engine/index.js';
import type { AgentTeamHost } from '../host.js';
import { confirmModal, showError, showInfo } from '../notify.js';
import { pickTask } from './task-picker.js';

/** Stops a task and everything below it; resolves once they have ended. */
export async function stopTask(host: AgentTeamHost, taskId?: unknown): Promise<void> {
  await host.historyLoaded;
  const manager = host.taskManager;
  let id = typeof taskId === 'string' && taskId !== '' ? taskId : undefined;
  if (id === undefined) {
    const running = manager.list().filter((task) => !isTerminal(task.status));
    if (running.length === 0) {
      showInfo(vscode.l10n.t('No Agent Team task is running.'));
      return;
    }
    id = await pickTask(running, {
      title: vscode.l10n.t('Stop Task'),
      placeHolder: vscode.l10n.t('Pick the task to stop (its subtasks stop with it)'),
    });
    if (id === undefined) return;
  }
  const task = manager.get(id);
  if (!task) {
    showError(vscode.l10n.t('There is no Agent Team task {0}. Run "Agent Team: Stop Task" without an argument to pick a running one.', id));
    return;
  }
  if (isTerminal(task.status)) {
    showInfo(vscode.l10n.t('Task {0} has already ended ({1}).', id, task.status));
    return;
  }
  const stopped = await manager.stop(id, { kind: 'user' });
  host.log.info(`Stopped ${id} (${stopped.role}: ${stopped.description}).`);
}

export async function stopAll(host: AgentTeamHost): Promise<void> {
  await host.historyLoaded;
  const running = host.taskManager.list().filter((task) => !isTerminal(task.status));
  if (running.length === 0) {
    showInfo(vscode.l10n.t('No Agent Team task is running.'));
    return;
  }
  await host.taskManager.stopAll({ kind: 'user' });
  host.log.info(`Stopped all tasks (${running.length}).`);
  vscode.window.setStatusBarMessage(`Agent Team: stopped ${running.length} task${running.length === 1 ? '' : 's'}`, 4000);
}

/** Opens the sidebar with the task selected. */
export async function showTask(host: AgentTeamHost, taskId?: unknown): Promise<void> {
  await host.historyLoaded;
  let id = typeof taskId === 'string' && taskId !== '' ? taskId : undefined;
  if (id === undefined) {
    const tasks = host.taskManager.list();
    if (tasks.length === 0) {
      await host.sidebar.reveal();
      return;
    }
    id = await pickTask(tasks, {
      title: vscode.l10n.t('Show Task'),
      placeHolder: vscode.l10n.t('Pick a task to show in the Agent Team view'),
    });
    if (id === undefined) return;
  }
  if (!host.taskManager.get(id)) {
    showError(vscode.l10n.t('There is no Agent Team task {0}. It may have been cleared from the history.', id));
    return;
  }
  await host.sidebar.reveal(id);
}

/** Removes finished task trees (and their proposals, after a warning when some are unreviewed). */
export async function clearHistory(host: AgentTeamHost): Promise<void> {
  await host.historyLoaded;
  const manager = host.taskManager;
  const finishedWithChanges = manager
    .list()
    .filter((task) => isTerminal(task.status) && host.review.tasksWithPendingChanges(task.id).includes(task.id));
  if (finishedWithChanges.length > 0) {
    const confirmed = await confirmModal(
      vscode.l10n.t('Clear the Agent Team history?'),
      vscode.l10n.t('Clear History'),
      finishedWithChanges.length === 1
        ? vscode.l10n.t('1 finished task has proposed changes you have not reviewed; clearing the history discards them.')
        : vscode.l10n.t(
            '{0} finished tasks have proposed changes you have not reviewed; clearing the history discards them.',
            finishedWithChanges.length,
          ),
    );
    if (!confirmed) return;
  }
  const removed = await manager.clearHistory();
  host.forgetChanges(removed);
  await host.forgetRuns(removed);
  // The commands that act on a task are offered no longer when none is left.
  host.activity.refresh();
  host.sidebar.historyCleared(manager.list().map((task) => task.id));
  host.log.info(`Cleared ${removed.length} finished task${removed.length === 1 ? '' : 's'} from the history.`);
}

/** Copy Prompt (a row's context menu): the task's prompt to the clipboard. */
export async function copyPrompt(host: AgentTeamHost, taskId?: unknown): Promise<void> {
  await host.historyLoaded;
  const task = typeof taskId === 'string' ? host.taskManager.get(taskId) : undefined;
  if (!task) {
    showError(vscode.l10n.t('There is no Agent Team task {0} to copy the prompt of.', String(taskId)));
    return;
  }
  await vscode.env.clipboard.writeText(task.prompt);
  vscode.window.setStatusBarMessage(`Agent Team: copied the prompt of ${task.id}`, 3000);
}
