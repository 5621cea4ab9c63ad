import type { Clock } from '../clock.js';
import { isTimeoutSet } from '../deadline.js';
import { ResponseTimeout } from './response-timeout.js';

/**
 * The idle timeout of one response stream: each wait for its next event may last at most `idleTimeoutMs`;
 * time the caller spends with an event between waits does not count. One timer serves the whole stream,
 * checked when it fires and set again for what is left, rather than one timer set and cancelled per
 * event: a response has an event per token, and a timer and a promise per event were most of what a
 * provider stream cost beside the SDK (B2 in docs/performance.md). Not for reuse once it has fired.
 */
export class IdleWatch {
  private waitingSince: number | undefined;
  private cancelTimer: (() => void) | undefined;
  private resolveWait: (value: unknown) => void = () => {};
  private rejectWait: (error: unknown) => void = () => {};
  private expired = false;
  private readonly timed: boolean;

  /** `onTimeout` closes the request, so the read the wait was on ends too. 0 turns the timeout off. */
  constructor(
    private readonly clock: Clock,
    private readonly idleTimeoutMs: number,
    private readonly onTimeout: () => void,
  ) {
    this.timed = idleTimeoutMs > 0 && isTimeoutSet(idleTimeoutMs);
  }

  /** Settles as `step` does, or rejects with a `ResponseTimeout` once the wait has lasted the idle timeout. */
  wait<T>(step: Promise<T>): Promise<T> {
    if (!this.timed) return step;
    if (this.expired) return Promise.reject(new ResponseTimeout('idle', this.idleTimeoutMs));
    this.waitingSince = this.clock.now();
    this.cancelTimer ??= this.clock.setTimer(this.check, this.idleTimeoutMs);
    const waited = new Promise<T>(this.capture as (resolve: (value: T) => void, reject: (error: unknown) => void) => void);
    step.then(this.settleValue, this.settleError);
    return waited;
  }

  /** Cancels the timer: the stream is over. */
  dispose(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.waitingSince = undefined;
  }

  // Bound once, not made per wait.
  private readonly capture = (resolve: (value: unknown) => void, reject: (error: unknown) => void): void => {
    this.resolveWait = resolve;
    this.rejectWait = reject;
  };

  private readonly settleValue = (value: unknown): void => {
    // A step that settles after the timeout lands on a wait already rejected; nothing is waiting on it.
    if (this.expired) return;
    this.waitingSince = undefined;
    this.resolveWait(value);
  };

  private readonly settleError = (error: unknown): void => {
    if (this.expired) return;
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
    this.expired = true;
    this.waitingSince = undefined;
    this.onTimeout();
    this.rejectWait(new ResponseTimeout('idle', this.idleTimeoutMs));
  };
}
