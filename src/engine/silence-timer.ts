import type { Clock } from './clock.js';

/**
 * The engine's one silence timer: it ends something that goes quiet too long. `restart(timeoutMs)` starts
 * counting silence from now, `pause()` stops counting (the caller is busy, not waiting), and after
 * `timeoutMs` of silence `signal` aborts with `timeoutError(timeoutMs)`. Used by a model's response stream
 * (`IdleWatch`, per event) and by an A2A remote exchange (connect, answer, cancel).
 *
 * One clock timer serves every restart, checked when it fires and set again for what is left, rather than
 * one timer set and cancelled per restart: a response restarts it once per token, and a timer per token
 * was most of what a provider stream cost beside the SDK (B2 in docs/performance.md).
 */
export class SilenceTimer {
  /** Made when `signal` is first asked for: a caller told by `onSilence` never needs one (one per response). */
  private controller: AbortController | undefined;
  /** Set once a silence has lasted its limit: the timeout error. */
  private fired: { error: unknown } | undefined;
  private silentSince: number | undefined;
  private limitMs = 0;
  private cancelTimer: (() => void) | undefined;
  /** When the clock timer set now fires; a shorter restart sets it again earlier. */
  private timerDueAt = 0;
  /** How long the silence that fired was; undefined until it fires. */
  firedAfterMs: number | undefined;

  /** `onSilence`, given, is called with the timeout error once a silence has lasted its limit (after `signal` aborts). */
  constructor(
    private readonly clock: Clock,
    private readonly timeoutError: (silentMs: number) => unknown,
    private readonly onSilence?: (error: unknown) => void,
  ) {}

  /** Aborted (with the timeout error) once a silence has lasted its limit. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.fired) this.controller.abort(this.fired.error);
    }
    return this.controller.signal;
  }

  /** Counts silence from now: fires after `timeoutMs` of it unless restarted or paused first. */
  restart(timeoutMs: number): void {
    if (this.fired) return;
    const now = this.clock.now();
    this.silentSince = now;
    this.limitMs = timeoutMs;
    if (this.cancelTimer && this.timerDueAt <= now + timeoutMs) return;
    this.cancelTimer?.();
    this.arm(timeoutMs);
  }

  /** Stops counting: time until the next restart is not silence (the caller is busy with what came). */
  pause(): void {
    this.silentSince = undefined;
  }

  /** Stops for good; call it when the exchange is over, however it ended. */
  dispose(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.silentSince = undefined;
  }

  private arm(delayMs: number): void {
    this.timerDueAt = this.clock.now() + delayMs;
    this.cancelTimer = this.clock.setTimer(this.check, delayMs);
  }

  private readonly check = (): void => {
    this.cancelTimer = undefined;
    // Not counting: the next restart sets the timer again.
    if (this.silentSince === undefined) return;
    const silentMs = this.clock.now() - this.silentSince;
    if (silentMs < this.limitMs) return this.arm(this.limitMs - silentMs);
    this.firedAfterMs = this.limitMs;
    this.silentSince = undefined;
    const error = this.timeoutError(this.limitMs);
    this.fired = { error };
    this.controller?.abort(error);
    this.onSilence?.(error);
  };
}
