/** Waiting for a task's end with a timeout and an abort signal, leaving no timer or listener behind. */
import type { Clock } from '../clock.js';
import { withDeadline } from '../deadline.js';
import { type TaskRecord, hasEnded, snapshotOf } from './task-record.js';
import type { TaskSnapshot } from './types.js';

export interface WaitOptions {
  /** Resolve with the current snapshot after this long if the task has not ended. Default: no limit. */
  timeoutMs?: number;
  /** Aborting gives up waiting (the promise rejects with a `StoppedError`); the task is not touched. */
  signal?: AbortSignal;
  /**
   * The task whose work is waiting, if any: it gives its concurrency slot back while it waits (see
   * `TaskWorkContext.waitFor`). Default: none (the caller is not a task).
   */
  waiterId?: string;
}

export function waitForEnd(record: TaskRecord, clock: Clock, options: WaitOptions): Promise<TaskSnapshot> {
  if (hasEnded(record)) return Promise.resolve(snapshotOf(record));
  // At the timeout the wait resolves with the task as it is then: the caller decides what a late task means.
  return withDeadline(
    record.end.promise.then(() => snapshotOf(record)),
    { clock, timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}), expire: () => snapshotOf(record) },
  );
}
