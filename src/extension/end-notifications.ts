/**
 * Tells the user when work nobody is waiting for ends: a delegation they started (it runs in the
 * background of the task manager), or a background subagent that outlived the agent that started it.
 * Show and Review Changes actions lead on; user stops are not announced back to the user. An interrupted
 * run is announced with a Resume action (its subagents go on with it, so only the root is).
 */
import * as vscode from 'vscode';
import { describeStopReason, isTerminal, type TaskManager, type TaskSnapshot } from '../engine/index.js';
import { commandAction, type NotificationAction, showError, showInfo, showWarning } from './notify.js';
import type { SecretRedactor } from './redaction.js';

export interface EndOfRunNotifierOptions {
  taskManager: TaskManager;
  /** Files waiting for review in the task's tree. */
  pendingFileCount: (taskId: string) => number;
  redactor: SecretRedactor;
}

const maxErrorLength = 300;

export class EndOfRunNotifier implements vscode.Disposable {
  private readonly unsubscribe: () => void;

  constructor(private readonly options: EndOfRunNotifierOptions) {
    this.unsubscribe = options.taskManager.onEvent((event) => {
      if (event.type === 'task-end') this.onEnd(event.task);
    });
  }

  dispose(): void {
    this.unsubscribe();
  }

  private onEnd(task: TaskSnapshot): void {
    if (!this.isUnattended(task)) return;
    if (task.status === 'stopped' && task.stopReason?.kind !== 'budget') return;
    if (task.status === 'interrupted' && task.parentId !== null) return;
    const name = `"${task.description}"${task.parentId === null ? '' : ` (${task.role})`}`;
    const show = commandAction(vscode.l10n.t('Show'), 'agentTeam.showTask', task.id);
    const pending = this.options.pendingFileCount(task.id);
    const actions: NotificationAction[] = [show];
    if (pending > 0) actions.push(commandAction(vscode.l10n.t('Review Changes'), 'agentTeam.reviewChanges', task.id));
    const changes =
      pending === 0
        ? ''
        : pending === 1
          ? vscode.l10n.t(' It proposes changes to 1 file for your review.')
          : vscode.l10n.t(' It proposes changes to {0} files for your review.', pending);
    if (task.status === 'completed') {
      showInfo(vscode.l10n.t('Agent Team finished {0}.{1}', name, changes), ...actions);
    } else if (task.status === 'failed') {
      const error = this.options.redactor.redact(task.error ?? 'unknown error');
      const shortError = error.length > maxErrorLength ? `${error.slice(0, maxErrorLength - 1)}\u2026` : error;
      if (/api key|unauthori[sz]ed|authentication|401/i.test(error))
        actions.push(commandAction(vscode.l10n.t('Set API Key'), 'agentTeam.setApiKey'));
      showError(vscode.l10n.t('Agent Team: {0} failed: {1}{2}', name, shortError, changes), ...actions);
    } else if (task.status === 'interrupted') {
      actions.push(commandAction(vscode.l10n.t('Resume'), 'agentTeam.resumeRun', task.id));
      showWarning(vscode.l10n.t('Agent Team: {0} was interrupted before it finished.{1}', name, changes), ...actions);
    } else if (task.stopReason) {
      showWarning(vscode.l10n.t('Agent Team: {0} was {1}.{2}', name, describeStopReason(task.stopReason), changes), ...actions);
    }
  }

  /** A root task, or one whose parent has already ended: nobody else will report its result. */
  private isUnattended(task: TaskSnapshot): boolean {
    if (task.parentId === null) return true;
    const parent = this.options.taskManager.get(task.parentId);
    return parent === undefined || isTerminal(parent.status);
  }
}
