/**
 * A cancellable progress notification for a delegation the user started: it names what the team is
 * doing (the latest subtask to start) and Cancel stops the whole run. It closes when the run ends.
 */
import * as vscode from 'vscode';
import type { TaskManager, TaskSnapshot } from '../engine/tasks/index.js';
import { isTerminal } from '../engine/tasks/index.js';

export function showRunProgress(taskManager: TaskManager, root: TaskSnapshot): Thenable<void> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Agent Team: ${root.description}`, cancellable: true },
    (progress, token) =>
      new Promise<void>((resolve) => {
        const current = taskManager.get(root.id);
        if (!current || isTerminal(current.status)) {
          resolve();
          return;
        }
        progress.report({ message: `${root.role} is working\u2026` });
        const subscriptions: Array<() => void> = [];
        const finish = () => {
          for (const unsubscribe of subscriptions.splice(0)) unsubscribe();
          resolve();
        };
        subscriptions.push(
          taskManager.onEvent((event) => {
            if (event.type === 'task-start' && event.task.rootId === root.id && event.task.id !== root.id) {
              progress.report({ message: `${event.task.role}: ${event.task.description}` });
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
