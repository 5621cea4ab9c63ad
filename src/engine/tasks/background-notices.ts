import type { TaskSnapshot } from './types.js';
import { type TaskNotice, noticeFor } from './notifications.js';

/**
 * Notices of background tasks that ended, kept for their parent (null: the user, for root tasks) until it
 * takes them at its next turn, or reads the task's result itself (`TaskOutput`).
 */
export class BackgroundNotices {
  private readonly byParent = new Map<string | null, TaskNotice[]>();

  constructor(private readonly outputChars: number) {}

  /** A background task ended: its parent hears of it at its next turn. */
  add(task: TaskSnapshot): void {
    const notices = this.byParent.get(task.parentId) ?? [];
    notices.push(noticeFor(task, this.outputChars));
    this.byParent.set(task.parentId, notices);
  }

  /** The notices for `parentId`, oldest first; taking them clears them. */
  take(parentId: string | null): TaskNotice[] {
    const notices = this.byParent.get(parentId) ?? [];
    this.byParent.delete(parentId);
    return notices;
  }

  /** Drops the notice of `taskId` under `parentId`: the parent already read the result. */
  dismiss(taskId: string, parentId: string | null): void {
    const remaining = (this.byParent.get(parentId) ?? []).filter((notice) => notice.taskId !== taskId);
    if (remaining.length > 0) this.byParent.set(parentId, remaining);
    else this.byParent.delete(parentId);
  }

  /** Forgets the notices kept for `parentId` (its task left the history). */
  forget(parentId: string): void {
    this.byParent.delete(parentId);
  }
}
