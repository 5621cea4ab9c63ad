import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { createDeferred, type Deferred } from '../../src/engine/util/deferred.js';

/**
 * A `ManualClock` that also tells the test which timers were set: code that sets a timer after network
 * I/O (a retry wait after a 429, an idle timer once the headers arrive) can then be met exactly, without
 * sleeping or polling. `delays` lists every timer's delay in the order they were set.
 */
export class ObservedClock extends ManualClock {
  readonly delays: number[] = [];
  private readonly waiters: Array<{ delayMs: number; count: number; deferred: Deferred<void> }> = [];

  override setTimer(callback: () => void, delayMs: number): () => void {
    const cancel = super.setTimer(callback, delayMs);
    this.delays.push(delayMs);
    for (const waiter of [...this.waiters]) {
      if (this.timersSet(waiter.delayMs) >= waiter.count) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.deferred.resolve();
      }
    }
    return cancel;
  }

  /** How many timers of `delayMs` have been set so far. */
  timersSet(delayMs: number): number {
    return this.delays.filter((delay) => delay === delayMs).length;
  }

  /** Resolves once `count` timers of `delayMs` have been set in all (default: the first one). */
  waitForTimer(delayMs: number, count = 1): Promise<void> {
    if (this.timersSet(delayMs) >= count) return Promise.resolve();
    const deferred = createDeferred();
    this.waiters.push({ delayMs, count, deferred });
    return deferred.promise;
  }
}
