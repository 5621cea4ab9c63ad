/**
 * A deadline on the engine's clock that moves each time the remote says something: it fires only after
 * a stretch of silence, so a long task that keeps streaming is never cut, and a remote that never answers
 * (or stops answering) is. Firing aborts `signal`, which ends the HTTP request under way.
 */
import type { Clock } from '../clock.js';

export class SilenceDeadline {
  private readonly controller = new AbortController();
  private cancelTimer: () => void = () => {};
  /** How long the silence that fired was, for the error message; undefined until it fires. */
  firedAfterMs?: number;

  constructor(private readonly clock: Clock) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** (Re)starts the wait: fires after `timeoutMs` of silence from now. */
  restart(timeoutMs: number): void {
    this.cancelTimer();
    if (this.controller.signal.aborted) return;
    this.cancelTimer = this.clock.setTimer(() => {
      this.firedAfterMs = timeoutMs;
      this.controller.abort(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
  }

  /** Stops waiting; call it when the exchange is over, however it ended. */
  dispose(): void {
    this.cancelTimer();
  }
}
