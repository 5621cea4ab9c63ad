/**
 * How agents reach the user in VS Code: a question waits on its task (the row shows `waiting`, the
 * detail view's composer becomes an Answer box) and a notification offers to answer it. The answer comes
 * back through `answer` (the sidebar's Send). A stop, or the task's end, withdraws the question.
 */
import * as vscode from 'vscode';
import { onAbort, StoppedError, stopReasonOf, type UserChannel, type UserQuestion } from '../engine/index.js';

interface PendingQuestion {
  question: UserQuestion;
  resolve(answer: string | undefined): void;
}

/** Questions longer than this are cut in the notification (the detail view shows them whole). */
const notificationCharacters = 300;

export class HostUserChannel implements UserChannel {
  private readonly pending = new Map<string, PendingQuestion>();

  ask(question: UserQuestion, signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted) return Promise.reject(new StoppedError(stopReasonOf(signal)));
    // One question per task at a time: a second one replaces the first, which is then unanswered.
    this.pending.get(question.taskId)?.resolve(undefined);
    return new Promise<string | undefined>((resolve, reject) => {
      const removeAbort = onAbort(signal, () => {
        this.pending.delete(question.taskId);
        reject(new StoppedError(stopReasonOf(signal)));
      });
      this.pending.set(question.taskId, {
        question,
        resolve: (answer) => {
          removeAbort();
          this.pending.delete(question.taskId);
          resolve(answer);
        },
      });
      void this.notify(question);
    });
  }

  /** The question `taskId` waits on, if any. */
  questionOf(taskId: string): UserQuestion | undefined {
    return this.pending.get(taskId)?.question;
  }

  /** Answers the question `taskId` waits on; false when it waits on none. `undefined` ends a chat. */
  answer(taskId: string, answer: string | undefined): boolean {
    const pending = this.pending.get(taskId);
    if (!pending) return false;
    pending.resolve(answer);
    return true;
  }

  private async notify(question: UserQuestion): Promise<void> {
    const text = question.text.length > notificationCharacters ? `${question.text.slice(0, notificationCharacters - 1)}…` : question.text;
    const lead =
      question.kind === 'chat'
        ? `Agent Team: ${question.role} (${question.taskId}) is waiting for your reply: ${text}`
        : question.kind === 'plan'
          ? `Agent Team: ${question.role} (${question.taskId}) waits for you to approve its plan before any subagent starts.`
          : `Agent Team: ${question.role} (${question.taskId}) asks: ${text}`;
    const choice = await vscode.window.showInformationMessage(lead, 'Answer');
    if (choice === 'Answer' && this.pending.has(question.taskId))
      await vscode.commands.executeCommand('agentTeam.showTask', question.taskId);
  }
}
