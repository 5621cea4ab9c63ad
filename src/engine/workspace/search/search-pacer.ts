import { throwIfStopped } from '../../abort.js';

/** Units of work (characters searched) between two yields: about a few milliseconds of matching. */
export const defaultPacerBudget = 256 * 1024;

/** What one file costs beyond its characters (open, stat, read, decode), in the same units. */
export const perFileCost = 8 * 1024;

/**
 * Paces work done on the main thread (the JavaScript search, the search of proposals): after every
 * `budget` units reported it yields to the event loop, then throws `StoppedError` if the signal was
 * aborted meanwhile. Without the yield an abort (Ctrl-C, Stop, the tool's timeout) could not even be
 * delivered until the whole search ended.
 */
export class SearchPacer {
  private spentSinceYield = 0;

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly budget = defaultPacerBudget,
  ) {}

  async spend(units: number): Promise<void> {
    this.spentSinceYield += units;
    if (this.spentSinceYield < this.budget) return;
    this.spentSinceYield = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
    throwIfStopped(this.signal);
  }
}
