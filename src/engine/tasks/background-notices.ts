import type { TaskSnapshot } from './types.js';
import { type TaskNotice, noticeFor } from './notifications.js';
import { hasEnded, statusOf, type TaskRecord } from './task-record.js';
import type { TaskTree } from './task-tree.js';
import { isTerminal } from './types.js';

/**
 * Notices of background tasks that ended, kept for the task that will hear of them (null: the user, for
 * root tasks) until it takes them at its next turn, or reads the task's result itself (`TaskOutput`).
 *
 * No result is lost when the task that started a background task is gone: a notice goes to the nearest
 * ancestor that is still working (its parent, unless the parent has ended: a subagent that handed its
 * background tasks to its parent, or one stopped with them), and the notices a task had not taken when it
 * ended move up the same way. Only when every ancestor has ended does a notice stay with the run's root.
 */
export class BackgroundNotices {
  private readonly byRecipient = new Map<string | null, TaskNotice[]>();

  constructor(
    private readonly outputChars: number,
    private readonly tree: TaskTree,
  ) {}

  /** `record` has just ended: its notice (if it was in the background) and the notices it left go to its recipient. */
  taskEnded(record: TaskRecord, snapshot: TaskSnapshot): void {
    const recipient = this.recipientOf(record);
    const left = record.parentId === null ? [] : this.take(record.id);
    const notices = this.byRecipient.get(recipient) ?? [];
    notices.push(...left);
    if (record.background) notices.push(noticeFor(snapshot, this.outputChars));
    if (notices.length > 0) this.byRecipient.set(recipient, notices);
  }

  /** The notices for `recipientId`, oldest first; taking them clears them. */
  take(recipientId: string | null): TaskNotice[] {
    const notices = this.byRecipient.get(recipientId) ?? [];
    this.byRecipient.delete(recipientId);
    return notices;
  }

  /** Drops the notice of `taskId`, wherever it waits: its result was already read. */
  dismiss(taskId: string): void {
    for (const [recipient, notices] of this.byRecipient) {
      const remaining = notices.filter((notice) => notice.taskId !== taskId);
      if (remaining.length === notices.length) continue;
      if (remaining.length > 0) this.byRecipient.set(recipient, remaining);
      else this.byRecipient.delete(recipient);
    }
  }

  /** Forgets the notices kept for `recipientId` (its task left the history). */
  forget(recipientId: string): void {
    this.byRecipient.delete(recipientId);
  }

  /**
   * The tasks whose ends `id` hears of: those below it that have not ended, reached through tasks that
   * are stopped or done (whose notices pass them by). A task still working answers for its own subtree.
   */
  awaitedBy(id: string): TaskRecord[] {
    const awaited: TaskRecord[] = [];
    const visit = (record: TaskRecord) => {
      // Most tasks start none: asked at the end of every agent's run (background-results.ts), cheaply.
      if (record.childIds.length === 0) return;
      for (const child of this.tree.childrenOf(record)) {
        if (!hasEnded(child)) awaited.push(child);
        if (isTerminal(statusOf(child))) visit(child);
      }
    };
    const top = this.tree.get(id);
    if (top) visit(top);
    return awaited;
  }

  /** The nearest ancestor still working; the run's root when all have ended; null for a root task. */
  private recipientOf(record: TaskRecord): string | null {
    if (record.parentId === null) return null;
    let top: string = record.parentId;
    for (
      let ancestor = this.tree.get(record.parentId);
      ancestor;
      ancestor = ancestor.parentId === null ? undefined : this.tree.get(ancestor.parentId)
    ) {
      if (!isTerminal(statusOf(ancestor))) return ancestor.id;
      top = ancestor.id;
    }
    return top;
  }
}
