import type { Clock } from '../clock.js';
import { hasTimeout } from '../deadline.js';
import { ResponseTimeout } from './response-timeout.js';

/**
 * The waits of one response stream for its next event: each may last at most `idleTimeoutMs` (time the
 * caller spends with an event between waits does not count), and the one under way ends at once when the
 * request is stopped (`interrupt`). One timer serves the whole stream, checked when it fires and set again
 * for what is left, rather than one timer set and cancelled per event: a response has an event per token,
 * and a timer and a promise per event were most of what a provider stream cost beside the SDK (B2 in
 * docs/performance.md). Once it has ended a wait (a timeout, a stop), every later wait ends the same way.
 */
export class IdleWatch {
  private waitingSince: number | undefined;
  private cancelTimer: (() => void) | undefined;
  private resolveWait: (value: unknown) => void = () => {};
  private rejectWait: (error: unknown) => void = () => {};
  /** Set once a timeout or a stop has ended the waits: what every later one rejects with. */
  private ended: { error: unknown } | undefined;
  private readonly timed: boolean;

  /** `onTimeout` closes the request, so the read the wait was on ends too. 0 turns the timeout off. */
  constructor(
    private readonly clock: Clock,
    private readonly idleTimeoutMs: number,
    private readonly onTimeout: () => void,
  ) {
    this.timed = hasTimeout(idleTimeoutMs);
  }

  /** Settles as `step` does, unless the wait lasts the idle timeout or is interrupted first. */
  wait<T>(step: Promise<T>): Promise<T> {
    if (this.ended) return Promise.reject(this.ended.error);
    this.waitingSince = this.clock.now();
    if (this.timed) this.cancelTimer ??= this.clock.setTimer(this.check, this.idleTimeoutMs);
    const waited = new Promise<T>(this.capture as (resolve: (value: T) => void, reject: (error: unknown) => void) => void);
    step.then(this.settleValue, this.settleError);
    return waited;
  }

  /** Ends the wait under way, and every later one, with `error` (a `StoppedError`: the request was stopped). */
  interrupt(error: unknown): void {
    this.end(error);
  }

  /** Cancels the timer: the stream is over. */
  dispose(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.waitingSince = undefined;
  }

  private end(error: unknown): void {
    if (this.ended) return;
    this.ended = { error };
    const waiting = this.waitingSince !== undefined;
    this.dispose();
    if (waiting) this.rejectWait(error);
  }

  // Bound once, not made per wait.
  private readonly capture = (resolve: (value: unknown) => void, reject: (error: unknown) => void): void => {
    this.resolveWait = resolve;
    this.rejectWait = reject;
  };

  private readonly settleValue = (value: unknown): void => {
    // A step that settles after a timeout or a stop lands on a wait already ended; nothing waits on it.
    if (this.ended) return;
    this.waitingSince = undefined;
    this.resolveWait(value);
  };

  private readonly settleError = (error: unknown): void => {
    if (this.ended) return;
    this.waitingSince = undefined;
    this.rejectWait(error);
  };

  private readonly check = (): void => {
    this.cancelTimer = undefined;
    // Not waiting: the next wait sets the timer again.
    if (this.waitingSince === undefined) return;
    const waited = this.clock.now() - this.waitingSince;
    if (waited < this.idleTimeoutMs) {
      this.cancelTimer = this.clock.setTimer(this.check, this.idleTimeoutMs - waited);
      return;
    }
    // The request is closed first, so the read the wait was on ends too.
    this.onTimeout();
    this.end(new ResponseTimeout('idle', this.idleTimeoutMs));
  };
}
