/**
 * Time as the engine sees it. Injected everywhere a timeout or timestamp matters so that tests drive time
 * with a `ManualClock` (src/engine/testing) instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once after `delayMs`; returns a function that cancels it. */
  setTimer(callback: () => void, delayMs: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, delayMs) {
    const handle = setTimeout(callback, delayMs);
    // A pending engine timer must never keep the CLI process alive on its own.
    handle.unref?.();
    return () => clearTimeout(handle);
  },
};
