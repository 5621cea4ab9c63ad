/**
 * A timer that can be paused: the auto-background timer of a task stops counting while the task waits
 * for the user (answering a question is not the task taking long) and goes on from where it was.
 */
import type { Clock } from '../clock.js';

export class PausableTimer {
  private remainingMs: number;
  private startedAt: number | undefined;
  private cancelRunning: (() => void) | undefined;
  private done = false;

  constructor(
    private readonly clock: Clock,
    delayMs: number,
    private readonly fire: () => void,
  ) {
    this.remainingMs = delayMs;
    this.resume();
  }

  /** Stops counting; `resume` counts on from here. No effect when paused, fired or cancelled. */
  pause(): void {
    if (this.done || this.startedAt === undefined) return;
    this.remainingMs = Math.max(0, this.remainingMs - (this.clock.now() - this.startedAt));
    this.startedAt = undefined;
    this.cancelRunning?.();
    this.cancelRunning = undefined;
  }

  resume(): void {
    if (this.done || this.startedAt !== undefined) return;
    this.startedAt = this.clock.now();
    this.cancelRunning = this.clock.setTimer(() => {
      this.done = true;
      this.fire();
    }, this.remainingMs);
  }

  cancel(): void {
    this.done = true;
    this.cancelRunning?.();
    this.cancelRunning = undefined;
  }
}
