/**
 * Compact (a task's context menu, or the palette with a task id): the task's conversation is summarised
 * and it goes on from the summary. A running task compacts before its next model request (`/compact`
 * through the inbox); a finished run's root compacts its kept conversation as a follow-up does, so the
 * next follow-up starts small.
 */
import * as vscode from 'vscode';
import { isTerminal } from '../../engine/index.js';
import type { AgentTeamHost } from '../host.js';
import { showError, showInfo } from '../notify.js';

export async function compactTask(host: AgentTeamHost, taskId?: unknown): Promise<void> {
  await host.historyLoaded;
  const task = typeof taskId === 'string' ? host.taskManager.get(taskId) : undefined;
  if (!task) {
    showError(
      vscode.l10n.t(
        'There is no Agent Team task {0} to compact. Right-click a task in the sidebar and choose Compact.',
        String(taskId ?? ''),
      ),
    );
    return;
  }
  if (isTerminal(task.status) && task.parentId !== null) {
    showInfo(
      vscode.l10n.t(
        "Task {0} has ended: only a run's conversation can be compacted once it has ended. Compact the run ({1}) instead.",
        task.id,
        task.rootId,
      ),
    );
    return;
  }
  // `/compact` would otherwise be taken as the answer to the question the task waits on.
  if (task.status === 'waiting') {
    showInfo(vscode.l10n.t('Task {0} is waiting for your answer; answer it first, then compact.', task.id));
    return;
  }
  await host.sendToTask(task.id, '/compact');
}
