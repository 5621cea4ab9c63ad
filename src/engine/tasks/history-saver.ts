/**
 * Hands the history to the store without ever having two saves in flight: requests made while a save runs
 * collapse into one more save of the latest state. Failures are reported, never thrown at the manager.
 */
import { errorMessage } from '../errors.js';
import type { PersistedHistory, TaskStore } from './task-store.js';

export class HistorySaver {
  private wanted = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly store: TaskStore | undefined,
    private readonly build: () => PersistedHistory,
    private readonly warn: (message: string, cause?: unknown) => void,
  ) {}

  request(): void {
    const store = this.store;
    if (!store?.save) return;
    const save = (history: PersistedHistory) => store.save?.(history);
    this.wanted = true;
    if (this.loop) return;
    this.loop = (async () => {
      try {
        while (this.wanted) {
          await Promise.resolve(); // Gathers the other changes of this tick into the same save.
          this.wanted = false;
          try {
            await save(this.build());
          } catch (error) {
            this.warn(`could not save task history: ${errorMessage(error)}`, error);
          }
        }
      } finally {
        this.loop = undefined;
      }
    })();
  }

  /** Resolves once the latest requested state has been saved (or its save has failed and been reported). */
  async flush(): Promise<void> {
    while (this.loop) await this.loop;
  }
}
