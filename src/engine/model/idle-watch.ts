import type { Clock } from '../clock.js';
import { hasTimeout } from '../deadline.js';
import { SilenceTimer } from '../silence-timer.js';
import { ResponseTimeout } from './response-timeout.js';

/**
 * The waits of one response stream for its next event: each may last at most `idleTimeoutMs` (time the
 * caller spends with an event between waits does not count), and the one under way ends at once when the
 * request is stopped (`interrupt`). The timing is the engine's one `SilenceTimer` (one clock timer for the
 * whole stream); the waits share bound callbacks rather than closures per event, since a response has an
 * event per token (B2 in docs/performance.md). Once it has ended a wait (a timeout, a stop), every later wait
 * ends the same way.
 */
export class IdleWatch {
  private readonly timer: SilenceTimer;
  private waiting = false;
  private resolveWait: (value: unknown) => void = () => {};
  private rejectWait: (error: unknown) => void = () => {};
  /** Set once a timeout or a stop has ended the waits: what every later one rejects with. */
  private ended: { error: unknown } | undefined;
  private readonly timed: boolean;

  /** `onTimeout` closes the request, so the read the wait was on ends too. 0 turns the timeout off. */
  constructor(
    clock: Clock,
    private readonly idleTimeoutMs: number,
    private readonly onTimeout: () => void,
  ) {
    this.timed = hasTimeout(idleTimeoutMs);
    // Told by a callback, not by the timer's signal: no signal and listener of its own per response.
    this.timer = new SilenceTimer(clock, (silentMs) => new ResponseTimeout('idle', silentMs), this.timedOut);
  }

  /** Settles as `step` does, unless the wait lasts the idle timeout or is interrupted first. */
  wait<T>(step: Promise<T>): Promise<T> {
    if (this.ended) return Promise.reject(this.ended.error);
    this.waiting = true;
    if (this.timed) this.timer.restart(this.idleTimeoutMs);
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
    this.timer.dispose();
    this.waiting = false;
  }

  private end(error: unknown): void {
    if (this.ended) return;
    this.ended = { error };
    const waiting = this.waiting;
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
    this.pause();
    this.resolveWait(value);
  };

  private readonly settleError = (error: unknown): void => {
    if (this.ended) return;
    this.pause();
    this.rejectWait(error);
  };

  private pause(): void {
    this.waiting = false;
    this.timer.pause();
  }

  private readonly timedOut = (error: unknown): void => {
    // The request is closed first, so the read the wait was on ends too.
    this.onTimeout();
    this.end(error);
  };
}
