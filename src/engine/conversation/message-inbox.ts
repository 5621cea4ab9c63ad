/**
 * Messages for running tasks, from the user (the task's detail view, the CLI) or from the agent that
 * started them (`SendMessage`). A task sees its messages at its next turn, as notices in its
 * conversation and its transcript; never in the middle of a turn.
 */
import { TaskError } from '../tasks/task-error.js';
import type { TaskManager } from '../tasks/task-manager.js';
import { isTerminal } from '../tasks/types.js';
import { compactCommand } from '../agent/compaction/compact-command.js';

/** The longest message accepted; a longer one is refused rather than cut (its end may matter most). */
export const maxMessageCharacters = 20_000;

export class MessageInbox {
  private readonly pending = new Map<string, string[]>();
  /** `/compact` asked by the user, per task: its focus ('' for none). Not a message: the agent never sees it. */
  private readonly compactions = new Map<string, string>();

  constructor(private readonly taskManager: TaskManager) {}

  /**
   * Leaves `text` for task `taskId`, from `from` (`the user`, `task t1 (coordinator)`). Throws a
   * `TaskError` with a clear message for an unknown or finished task, or an empty or oversized message.
   */
  deliver(taskId: string, from: string, text: string): void {
    const task = this.taskManager.get(taskId);
    if (!task) throw new TaskError('unknown-task', `There is no task ${taskId}.`);
    if (isTerminal(task.status))
      throw new TaskError(
        'parent-ended',
        `Task ${taskId} has already ${task.status === 'stopped' || task.status === 'interrupted' ? `been ${task.status}` : task.status}; a message cannot reach it.`,
      );
    const message = text.trim();
    if (message === '') throw new TaskError('invalid-options', 'The message is empty.');
    if (message.length > maxMessageCharacters)
      throw new TaskError(
        'invalid-options',
        `The message is ${message.length} characters long; at most ${maxMessageCharacters} are accepted.`,
      );
    const compact = from === 'the user' ? compactCommand(message) : undefined;
    if (compact !== undefined) return void this.compactions.set(taskId, compact);
    const queue = this.pending.get(taskId) ?? [];
    queue.push(`Message from ${from}: ${message}`);
    this.pending.set(taskId, queue);
  }

  /** The user's `/compact` for `taskId`, if one waits: its focus text ('' for none); taking it clears it. */
  takeCompaction(taskId: string): string | undefined {
    const focus = this.compactions.get(taskId);
    this.compactions.delete(taskId);
    return focus;
  }

  /** The messages waiting for `taskId`, oldest first; taking them clears them. */
  take(taskId: string): string[] {
    const messages = this.pending.get(taskId) ?? [];
    this.pending.delete(taskId);
    return messages;
  }
}
