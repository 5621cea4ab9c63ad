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
  /** No deadline unless `hasTimeout` (0, Infinity, undefined, past 2^31-1 ms: none). */
  timeoutMs: number | undefined;
  /** Aborting rejects with a `StoppedError` carrying the signal's stop reason. Default: none. */
  signal?: AbortSignal;
  /** Called at the deadline: what it returns settles the wait; what it throws rejects it. */
  expire(): T;
}

/**
 * The one meaning of a timeout, for every timer of the engine: a positive number of milliseconds a timer
 * can keep. 0 is no timeout, as the settings document (`idleTimeoutMs: 0`, a tool's `timeoutMs: 0`); so
 * are undefined, Infinity, a negative number, and anything past 2^31-1 ms (Node fires such a timer at once).
 */
export function hasTimeout(timeoutMs: number | undefined): timeoutMs is number {
  return timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= 2_147_483_647;
}

/** Settles as `promise` does, unless the deadline passes (`expire`) or the signal aborts first. */
export function withDeadline<T>(promise: Promise<T>, deadline: Deadline<T>): Promise<T> {
  const { signal, timeoutMs } = deadline;
  if (signal?.aborted) return Promise.reject(new StoppedError(stopReasonOf(signal)));
  if (!hasTimeout(timeoutMs) && !signal) return promise;
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
    if (hasTimeout(timeoutMs)) {
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
