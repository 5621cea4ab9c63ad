import type { Clock } from '../clock.js';

/**
 * The provider kept the engine waiting too long: for the response to start (`response-start`: no headers
 * within the request timeout) or, once it had started, for its next event (`idle`). Raised by
 * `withinTimeout` and turned into a `ProviderError` of kind `timeout` by the failure mapping.
 */
export class ResponseTimeout extends Error {
  constructor(
    readonly phase: 'response-start' | 'idle',
    readonly timeoutMs: number,
  ) {
    super(`no ${phase === 'idle' ? 'data' : 'response'} within ${timeoutMs} ms`);
    this.name = 'ResponseTimeout';
  }
}

/** Node fires timers past 2^31-1 ms at once, so such timeouts (and 0, and Infinity) count as none. */
export function isTimeoutSet(timeoutMs: number): boolean {
  return Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= 2_147_483_647;
}

/**
 * Settles as `promise` does, or rejects with a `ResponseTimeout` once `timeoutMs` passes on `clock`, and
 * then calls `onTimeout` (which closes the request, so the underlying read ends too). The timer is
 * cancelled when the promise settles first; a late settlement after the timeout is ignored.
 */
export function withinTimeout<T>(
  promise: Promise<T>,
  timeout: { clock: Clock; timeoutMs: number; phase: ResponseTimeout['phase'] },
  onTimeout: () => void,
): Promise<T> {
  if (!isTimeoutSet(timeout.timeoutMs)) return promise;
  return new Promise<T>((resolve, reject) => {
    const cancelTimer = timeout.clock.setTimer(() => {
      reject(new ResponseTimeout(timeout.phase, timeout.timeoutMs));
      onTimeout();
    }, timeout.timeoutMs);
    promise.then(
      (value) => {
        cancelTimer();
        resolve(value);
      },
      (error: unknown) => {
        cancelTimer();
        reject(error);
      },
    );
  });
}
