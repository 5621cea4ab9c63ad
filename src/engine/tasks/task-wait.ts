/** Waiting for a task's end with a timeout and an abort signal, leaving no timer or listener behind. */
import type { Clock } from '../clock.js';
import { StoppedError, stopReasonOf } from '../errors.js';
import { onAbort } from '../abort.js';
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
  const { signal, timeoutMs } = options;
  if (signal?.aborted) return Promise.reject(new StoppedError(stopReasonOf(signal)));
  return new Promise<TaskSnapshot>((resolve, reject) => {
    let cancelTimer = () => {};
    let removeAbortListener = () => {};
    const settle = (finish: () => void) => {
      cancelTimer();
      removeAbortListener();
      finish();
    };
    void record.end.promise.then((task) => settle(() => resolve(task)));
    if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
      cancelTimer = clock.setTimer(() => settle(() => resolve(snapshotOf(record))), timeoutMs);
    }
    if (signal) removeAbortListener = onAbort(signal, () => settle(() => reject(new StoppedError(stopReasonOf(signal)))));
  });
}
