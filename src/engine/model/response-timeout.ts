import type { Clock } from '../clock.js';
import { withDeadline } from '../deadline.js';
import { AgentTeamError } from '../errors.js';

/**
 * The provider kept the engine waiting too long: for the response to start (`response-start`: no headers
 * within the request timeout) or, once it had started, for its next event (`idle`). Raised by
 * `withinTimeout` and turned into a `ProviderError` of kind `timeout` by the failure mapping.
 */
export class ResponseTimeout extends AgentTeamError {
  override readonly name: string = 'ResponseTimeout';
  readonly code = 'response-timeout';
  constructor(
    readonly phase: 'response-start' | 'idle',
    readonly timeoutMs: number,
  ) {
    super(`no ${phase === 'idle' ? 'data' : 'response'} within ${timeoutMs} ms`);
  }
}

/**
 * Settles as `promise` does, or rejects with a `ResponseTimeout` once `timeoutMs` passes on `clock`, and
 * then calls `onTimeout` (which closes the request, so the underlying read ends too). A late settlement
 * after the timeout is ignored.
 */
export function withinTimeout<T>(
  promise: Promise<T>,
  timeout: { clock: Clock; timeoutMs: number; phase: ResponseTimeout['phase']; signal?: AbortSignal },
  onTimeout: () => void,
): Promise<T> {
  return withDeadline(promise, {
    clock: timeout.clock,
    // Given, its abort ends the wait at once with a `StoppedError`.
    ...(timeout.signal === undefined ? {} : { signal: timeout.signal }),
    // 0 turns a timeout off (`ModelSettings`): hasTimeout's meaning.
    timeoutMs: timeout.timeoutMs,
    expire: () => {
      // The wait has settled already: whatever closing the request makes the read throw comes too late.
      onTimeout();
      throw new ResponseTimeout(timeout.phase, timeout.timeoutMs);
    },
  });
}
