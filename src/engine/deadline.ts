/**
 * The one way the engine waits with a deadline: on the injected clock (tests drive it, nothing sleeps),
 * ending the moment the task is stopped with the task's own stop reason, and leaving no timer or listener
 * behind however it ends. Used by the model requests, the MCP servers' start and the task waits.
 */
import type { Clock } from './clock.js';
import { StoppedError, stopReasonOf } from './errors.js';
import { onAbort } from './abort.js';

export interface Deadline<T> {
  clock: Clock;
  /** Node fires timers past 2^31-1 ms at once, so such a wait (and Infinity, undefined) has no deadline. */
  timeoutMs: number | undefined;
  /** Aborting rejects with a `StoppedError` carrying the signal's stop reason. Default: none. */
  signal?: AbortSignal;
  /** Called at the deadline: what it returns settles the wait; what it throws rejects it. */
  expire(): T;
}

/** True when `timeoutMs` is a deadline a timer can keep. */
export function isTimeoutSet(timeoutMs: number | undefined): timeoutMs is number {
  return timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs >= 0 && timeoutMs <= 2_147_483_647;
}

/** Settles as `promise` does, unless the deadline passes (`expire`) or the signal aborts first. */
export function withDeadline<T>(promise: Promise<T>, deadline: Deadline<T>): Promise<T> {
  const { signal, timeoutMs } = deadline;
  if (signal?.aborted) return Promise.reject(new StoppedError(stopReasonOf(signal)));
  if (!isTimeoutSet(timeoutMs) && !signal) return promise;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let cancelTimer = () => {};
    let removeListener = () => {};
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      cancelTimer();
      removeListener();
      finish();
    };
    if (isTimeoutSet(timeoutMs)) {
      cancelTimer = deadline.clock.setTimer(
        () =>
          settle(() => {
            try {
              resolve(deadline.expire());
            } catch (error) {
              reject(error);
            }
          }),
        timeoutMs,
      );
    }
    if (signal) removeListener = onAbort(signal, () => settle(() => reject(new StoppedError(stopReasonOf(signal)))));
    promise.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}
