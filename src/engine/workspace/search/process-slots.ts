import { StoppedError, stopReasonOf } from '../../errors.js';

/** ripgrep processes the whole process runs at once, at most; each already uses every core. */
export const defaultRipgrepProcessLimit = 4;

/**
 * A counting semaphore with a first-in, first-out queue: at most `limit` holders at once; more callers
 * wait in arrival order. A caller whose signal aborts while it waits leaves the queue at once with a
 * `StoppedError` and takes no slot.
 */
export class ProcessSlots {
  private held = 0;
  private readonly queue: Array<{ grant: () => void }> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`ProcessSlots needs a limit of at least 1, not ${limit}.`);
  }

  /** Slots in use now. */
  get active(): number {
    return this.held;
  }

  /** Callers waiting for a slot now. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Waits for a slot; the returned function gives it back (calling it again does nothing). */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw new StoppedError(stopReasonOf(signal));
    if (this.held < this.limit && this.queue.length === 0) {
      this.held++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const entry = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.queue.splice(this.queue.indexOf(entry), 1);
        reject(new StoppedError(stopReasonOf(signal!)));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(entry);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      // The slot passes straight to the next in line, so a newcomer cannot take it in between.
      if (next) next.grant();
      else this.held--;
    };
  }
}

/** The process-wide cap on ripgrep processes: every workspace's searches share it. */
export const ripgrepProcesses = new ProcessSlots(defaultRipgrepProcessLimit);
