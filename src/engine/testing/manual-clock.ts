import type { Clock } from '../clock.js';

interface PendingTimer {
  id: number;
  dueAt: number;
  callback: () => void;
}

/** A clock that moves only when the test says so; timers fire in due order during `advance`. */
export class ManualClock implements Clock {
  private current: number;
  private nextId = 1;
  private timers: PendingTimer[] = [];

  constructor(start = 1_700_000_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(callback: () => void, delayMs: number): () => void {
    const timer = { id: this.nextId++, dueAt: this.current + Math.max(0, delayMs), callback };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((pending) => pending.id !== timer.id);
    };
  }

  /** Number of timers not yet fired or cancelled. */
  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward, firing every timer that falls due, in order, with microtasks flushed between. */
  async advance(milliseconds: number): Promise<void> {
    const target = this.current + milliseconds;
    // Work already under way settles first, as it would in real time before any timer could fire.
    await flushMicrotasks();
    for (;;) {
      const due = this.timers.filter((timer) => timer.dueAt <= target).sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
      const next = due[0];
      if (!next) break;
      this.timers = this.timers.filter((timer) => timer.id !== next.id);
      this.current = next.dueAt;
      next.callback();
      await flushMicrotasks();
    }
    this.current = target;
    await flushMicrotasks();
  }
}

/** Lets every already-queued promise continuation run. */
export async function flushMicrotasks(rounds = 10): Promise<void> {
  for (let round = 0; round < rounds; round++) await Promise.resolve();
}
