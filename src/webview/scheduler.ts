/**
 * Render coalescing. Host messages can arrive hundreds of times a second (streamed text, usage updates of
 * many parallel tasks); the sidebar folds them all into at most one render per animation frame.
 */
import type { Clock } from '../engine/clock.js';

/** Runs a callback before the next paint. Injected so tests and benchmarks decide when frames happen. */
export interface FrameScheduler {
  requestFrame(callback: () => void): void;
}

/** `requestAnimationFrame` of the given window (the default in the browser). */
export function animationFrameScheduler(window: Window): FrameScheduler {
  return { requestFrame: (callback) => void window.requestAnimationFrame(() => callback()) };
}

/** Calls `render` once per requested frame, however many times `invalidate` was called before it. */
export class RenderCoalescer {
  private pending = false;

  constructor(
    private readonly scheduler: FrameScheduler,
    private readonly render: () => void,
  ) {}

  /** Asks for a render in the next frame; further calls before it are free. */
  invalidate(): void {
    if (this.pending) return;
    this.pending = true;
    this.scheduler.requestFrame(() => {
      // A `flushNow` in between already rendered: nothing left to do for this frame.
      if (!this.pending) return;
      this.pending = false;
      this.render();
    });
  }

  /** Renders at once (for user input that must show before the next event, e.g. moving focus). */
  flushNow(): void {
    this.pending = false;
    this.render();
  }

  get isPending(): boolean {
    return this.pending;
  }
}

/** The browser's clock: the engine's `Clock` interface, so tests can drive time with a `ManualClock`. */
export const browserClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, delayMs) {
    const handle = setTimeout(callback, delayMs);
    return () => clearTimeout(handle);
  },
};
