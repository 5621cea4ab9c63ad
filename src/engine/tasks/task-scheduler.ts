/**
 * Who works when: the concurrency slots and the waits that give them back. Only a task doing work holds a
 * slot. When its work starts to wait (on a foreground or auto subtask, on `wait` with a waiter, on
 * anything through `waitFor`) the slot goes to the next task in the queue; when the last wait is over the
 * task queues again, ahead of new work (slot-pool.ts), and its work goes on once it has a slot.
 *
 * The scheduler moves tasks between `queued`, `running`, `waiting` and `resuming`; the manager decides
 * outcomes (completed, failed, stopped) and tells the scheduler when a task leaves (`leave`).
 */
import { createDeferred } from '../util/deferred.js';
import { SlotPool } from './slot-pool.js';
import { UserTurns } from './user-turns.js';
import { isActivePhase, transition } from './task-lifecycle.js';
import type { OpenWait, TaskRecord } from './task-record.js';

export class TaskScheduler {
  private readonly pool: SlotPool<TaskRecord>;
  /** One question to the user at a time, across every task of the manager (user-turns.ts). */
  readonly userTurns = new UserTurns();

  /**
   * @param maxConcurrent slots at once.
   * @param hooks `startWork`: a queued task got its first slot (its phase is `running` by then);
   *   `userWaitChanged`: a task began or stopped waiting for the user (its status changed).
   */
  constructor(
    maxConcurrent: number,
    private readonly hooks: { startWork(record: TaskRecord): void; userWaitChanged(record: TaskRecord): void },
  ) {
    this.pool = new SlotPool<TaskRecord>(maxConcurrent, (record) => this.grant(record));
  }

  /** See `SlotPool.resize`. */
  resize(maxConcurrent: number): void {
    this.pool.resize(maxConcurrent);
  }

  get slotsInUse(): number {
    return this.pool.active;
  }

  /** Tasks waiting for a slot: new ones and ones resuming after a wait. */
  get queued(): number {
    return this.pool.queued;
  }

  /** Queues a new task: a subtask of a run under way goes before a new run. */
  enqueue(record: TaskRecord): void {
    this.pool.enqueue(record, record.parentId === null ? 'new-run' : 'subtask');
  }

  /**
   * Runs while `record`'s work waits on `promise`; resolves or rejects with it once the task has a slot
   * again, or at once if the task was stopped meanwhile (its work is being aborted and needs no slot).
   * While other waits of the same task are still open, a finished one goes on without a slot: it is the
   * tail of a tool call, and the task's next model call waits for all of them.
   *
   * `endsWith`: the task whose end settles `promise`. Its end closes the wait before its own slot is given
   * back (`leave`), so that slot goes to the waiter rather than to a task that happened to queue earlier.
   * `forUser`: the wait is for the user (the task's status is `waiting` meanwhile).
   */
  async whileWaiting<T>(
    record: TaskRecord,
    waitedFor: Promise<T> | (() => Promise<T>),
    options: { endsWith?: TaskRecord; forUser?: boolean } = {},
  ): Promise<T> {
    const wait = this.openWait(record, options.forUser ?? false);
    const endsWith = options.endsWith;
    if (wait && endsWith && endsWith.phase !== 'ended') endsWith.waitsOnEnd.push(wait);
    try {
      // A function starts what is waited for only once the wait is open (a question is put to the user
      // when the task already shows `waiting`).
      return await (typeof waitedFor === 'function' ? waitedFor() : waitedFor);
    } finally {
      if (wait) {
        this.closeWait(wait);
        if (record.phase === 'resuming') await record.resumed?.promise;
      }
    }
  }

  /**
   * The task has ended: the waits on it close, and then (so that its slot goes to a waiter it frees)
   * it leaves the schedule.
   */
  end(record: TaskRecord): void {
    for (const wait of record.waitsOnEnd.splice(0)) this.closeWait(wait);
    this.leave(record);
  }

  /**
   * The task leaves the schedule (stopped, or ended): its slot or its place in the queue is given back,
   * and a pending resume lets its work go on (to see its abort). Safe to call more than once.
   */
  leave(record: TaskRecord): void {
    this.pool.remove(record);
    if (record.holdsSlot) {
      record.holdsSlot = false;
      this.pool.release();
    }
    record.resumed?.resolve();
    record.resumed = undefined;
  }

  /** Takes a task out of the queue without giving anything back (it is about to be stopped). */
  dequeue(record: TaskRecord): void {
    this.pool.remove(record);
  }

  private grant(record: TaskRecord): void {
    const resuming = record.phase === 'resuming';
    transition(record, 'grant');
    record.holdsSlot = true;
    if (!resuming) {
      this.hooks.startWork(record);
      return;
    }
    record.resumed?.resolve();
    record.resumed = undefined;
  }

  private openWait(record: TaskRecord, forUser: boolean): OpenWait | undefined {
    if (!isActivePhase(record.phase)) return undefined;
    record.openWaits++;
    if (record.phase === 'running') {
      transition(record, 'suspend');
      record.holdsSlot = false;
      this.pool.release();
    } else if (record.phase === 'resuming') {
      this.pool.remove(record);
      transition(record, 'suspend');
    }
    if (forUser && ++record.userWaits === 1) this.hooks.userWaitChanged(record);
    return { waiter: record, closed: false, forUser };
  }

  private closeWait(wait: OpenWait): void {
    if (wait.closed) return;
    wait.closed = true;
    const record = wait.waiter;
    if (!isActivePhase(record.phase)) return;
    record.openWaits--;
    if (wait.forUser && --record.userWaits === 0) this.hooks.userWaitChanged(record);
    if (record.openWaits > 0 || record.phase !== 'waiting') return;
    transition(record, 'wake');
    record.resumed ??= createDeferred<void>();
    this.pool.enqueue(record, 'resume');
  }
}
