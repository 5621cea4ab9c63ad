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
    // Not unref'd: every engine timer is something a run waits for (a retry's backoff, a stopped task's
    // grace, auto-background), so it must keep the process alive; each is cancelled when its request or
    // task ends. (An unref'd retry wait let Node's event loop run dry mid-run.)
    const handle = setTimeout(callback, delayMs);
    return () => clearTimeout(handle);
  },
};
