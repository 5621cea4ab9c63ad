/**
 * One question to the user at a time. Seed 001 says `task` and `chat` agents do not run in parallel: two
 * of them started together must not both question the user. Every wait for the user (an `AskUser`
 * question, a chat's next message, an approval) takes its turn here: the first is put at once, the next
 * waits in order until the one before is answered (or its asker is stopped), its task marked as queued
 * for the user meanwhile. One per task manager, so per engine: the user is one person.
 */
import { raceWithSignal } from '../abort.js';
import { type Deferred, createDeferred } from '../util/deferred.js';

export class UserTurns {
  private asking = false;
  /** The questions waiting for their turn, oldest first. */
  private readonly queue: Deferred<void>[] = [];

  /**
   * Runs `ask` once no other question is open, and gives the turn to the next when it settles. When it
   * must wait first, `onQueued(true)` is called, then `onQueued(false)` when the wait ends (its turn came,
   * or a stop). A stop (`signal`) while it waits rejects with a `StoppedError` and leaves the queue. `ask`
   * must settle once `signal` aborts (race it with the signal), or the turn is held.
   */
  async take<T>(ask: () => Promise<T>, signal: AbortSignal, onQueued: (queued: boolean) => void): Promise<T> {
    await this.turn(signal, onQueued);
    try {
      return await ask();
    } finally {
      this.passOn();
    }
  }

  /** How many questions wait behind the open one. */
  get queued(): number {
    return this.queue.length;
  }

  private async turn(signal: AbortSignal, onQueued: (queued: boolean) => void): Promise<void> {
    if (!this.asking) {
      this.asking = true;
      return;
    }
    const turn = createDeferred<void>();
    this.queue.push(turn);
    onQueued(true);
    try {
      await raceWithSignal(turn.promise, signal);
    } catch (error) {
      const index = this.queue.indexOf(turn);
      // Still queued: it leaves. Its turn came as the stop did: it hands the turn on, unused.
      if (index >= 0) this.queue.splice(index, 1);
      else this.passOn();
      throw error;
    } finally {
      onQueued(false);
    }
  }

  private passOn(): void {
    const next = this.queue.shift();
    if (next) next.resolve();
    else this.asking = false;
  }
}
