/**
 * Progress for a run the user started, in the Agent Team view (its progress bar, and the view's icon),
 * not a notification that would stay on screen for minutes: it names what the team is doing (the latest
 * subtask to start) and ends with the run. Stopping is the row's Stop button.
 */
import * as vscode from 'vscode';
import { isTerminal, type TaskManager, type TaskSnapshot } from '../engine/index.js';
import { tasksViewId } from './sidebar/task-view-provider.js';

export function showRunProgress(taskManager: TaskManager, root: TaskSnapshot): Thenable<void> {
  return vscode.window.withProgress(
    { location: { viewId: tasksViewId }, title: vscode.l10n.t('Agent Team: {0}', root.description) },
    (progress, token) =>
      new Promise<void>((resolve) => {
        const current = taskManager.get(root.id);
        if (!current || isTerminal(current.status)) {
          resolve();
          return;
        }
        progress.report({ message: vscode.l10n.t('{0} is working\u2026', root.role) });
        const subscriptions: Array<() => void> = [];
        const finish = () => {
          for (const unsubscribe of subscriptions.splice(0)) unsubscribe();
          resolve();
        };
        subscriptions.push(
          taskManager.onEvent((event) => {
            if (event.type === 'task-start' && event.task.rootId === root.id && event.task.id !== root.id) {
              progress.report({ message: vscode.l10n.t('{0}: {1}', event.task.role, event.task.description) });
            } else if (event.type === 'task-end' && event.task.id === root.id) {
              finish();
            }
          }),
        );
        const cancellation = token.onCancellationRequested(() => {
          void taskManager.stop(root.id, { kind: 'user' }).catch(() => undefined);
          finish();
        });
        subscriptions.push(() => cancellation.dispose());
      }),
  );
}
