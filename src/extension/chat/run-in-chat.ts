/**
 * A run, told in a chat response: which subagent starts, which ends and how, which waits for the user,
 * and at the end the run's answer with buttons to show its tree and review its proposals. Cancelling the
 * request (the chat's Stop) stops the whole tree.
 */
import * as vscode from 'vscode';
import { isTerminal, type TaskManager, type TaskSnapshot } from '../../engine/index.js';
import { escapeMarkdown } from './markdown-text.js';
import { pendingCommand } from '../../shared/pending-command.js';
import { visibleText } from '../../shared/visible-text.js';
import { ChatTodos, planQuestionOf, reportPlanQuestion } from './chat-plan.js';

/** What of `vscode.ChatResponseStream` a run needs (so the tool and tests can pass their own). */
export type RunReport = Pick<vscode.ChatResponseStream, 'progress' | 'markdown' | 'button'>;

export interface RunInChatOptions {
  taskManager: TaskManager;
  /** Files of the run waiting for review. */
  pendingFileCount: (rootId: string) => number;
}

const statusMarks: Record<string, string> = { completed: '\u2713', failed: '\u2717', stopped: '\u25a0', interrupted: '\u23f8' };

/** Reports the run started as task `rootId` into `stream` until it ends; resolves with its last snapshot. */
export function reportRunInChat(
  options: RunInChatOptions,
  rootId: string,
  stream: RunReport,
  token: vscode.CancellationToken,
): Promise<TaskSnapshot> {
  const { taskManager } = options;
  return new Promise<TaskSnapshot>((resolve) => {
    const cleanups: Array<() => void> = [];
    const finish = (root: TaskSnapshot) => {
      for (const cleanup of cleanups.splice(0)) cleanup();
      stream.markdown(root.output?.trim() ? `\n\n${root.output.trim()}\n` : `\n\n_${vscode.l10n.t('(no answer)')}_\n`);
      stream.button({ command: 'agentTeam.showTask', arguments: [rootId], title: vscode.l10n.t('Show in Agent Team') });
      const pending = options.pendingFileCount(rootId);
      if (pending > 0) {
        stream.button({
          command: 'agentTeam.reviewChanges',
          arguments: [rootId],
          title: vscode.l10n.t('Review Changes ({0} {1})', pending, pending === 1 ? 'file' : 'files'),
        });
      }
      resolve(root);
    };
    const waiting = new Set<string>();
    // A follow-up run sits under the run it continues, so "in this run" means under `rootId`, not same root.
    const inRun = (task: TaskSnapshot): boolean => {
      for (let parentId = task.parentId; parentId !== null; parentId = taskManager.get(parentId)?.parentId ?? null) {
        if (parentId === rootId) return true;
      }
      return false;
    };
    // Waiting on the user, its question put: one queued behind another's is announced when its turn comes.
    const asksNow = (task: TaskSnapshot): boolean => task.status === 'waiting' && task.queuedForUser !== true;
    const todos = new ChatTodos(stream);
    cleanups.push(
      taskManager.onEvent((event) => {
        const ofRun = event.type !== 'task-start' && 'task' in event && (event.task.id === rootId || inRun(event.task));
        if (event.type === 'task-update' && ofRun) todos.update(event.task);
        // The run's own agent (its root) asks too when its plan waits for approval.
        const plan =
          event.type === 'task-update' && ofRun && asksNow(event.task) && !waiting.has(event.task.id)
            ? planQuestionOf(taskManager.transcript(event.task.id))
            : undefined;
        if (plan !== undefined && event.type === 'task-update') {
          waiting.add(event.task.id);
          reportPlanQuestion(stream, event.task, plan);
        } else if (event.type === 'task-start' && event.task.id !== rootId && inRun(event.task)) {
          stream.progress(vscode.l10n.t('{0}: {1}', event.task.role, event.task.description));
        } else if (event.type === 'task-update' && asksNow(event.task) && !waiting.has(event.task.id) && inRun(event.task)) {
          waiting.add(event.task.id);
          const command = pendingCommand(taskManager.transcript(event.task.id));
          if (command) {
            // Shown whole, exactly as it would run (a fence longer than any run of backquotes in it), or not at all.
            const shown = visibleText(command.command);
            const fence = '`'.repeat(Math.max(3, ...[...shown.matchAll(/`+/g)].map((run) => run[0].length + 1)));
            const whole = shown.length <= 2_000;
            stream.markdown(
              whole
                ? `\n\n${vscode.l10n.t('**{0}** wants to run this command in a scratch copy of the workspace: allow or deny it in the Agent Team view.', escapeMarkdown(event.task.role))}\n\n${fence}sh\n${shown}\n${fence}\n`
                : `\n\n${vscode.l10n.t('**{0}** wants to run a command of {1} characters: review it whole, then allow or deny it, in the Agent Team view.', escapeMarkdown(event.task.role), command.command.length)}\n`,
            );
            stream.button({ command: 'agentTeam.showTask', arguments: [event.task.id], title: vscode.l10n.t('Review the command') });
          } else {
            stream.markdown(
              `\n\n${vscode.l10n.t('**{0}** waits for your answer in the Agent Team view.', escapeMarkdown(event.task.role))}\n`,
            );
            stream.button({
              command: 'agentTeam.showTask',
              arguments: [event.task.id],
              title: vscode.l10n.t('Answer {0}', event.task.role),
            });
          }
        } else if (event.type === 'task-update' && event.task.status !== 'waiting') {
          waiting.delete(event.task.id);
        } else if (event.type === 'task-end' && event.task.id === rootId) {
          finish(event.task);
        } else if (event.type === 'task-end' && inRun(event.task)) {
          stream.markdown(
            `\n- ${statusMarks[event.task.status] ?? ''} **${escapeMarkdown(event.task.role)}**: ${escapeMarkdown(event.task.description)} \u2014 ${event.task.status}`,
          );
        }
      }),
    );
    const cancellation = token.onCancellationRequested(() => void taskManager.stop(rootId, { kind: 'user' }).catch(() => undefined));
    cleanups.push(() => cancellation.dispose());
    const current = taskManager.get(rootId);
    if (current && isTerminal(current.status)) finish(current);
    else if (token.isCancellationRequested) void taskManager.stop(rootId, { kind: 'user' }).catch(() => undefined);
  });
}
