/**
 * Delivers task events to listeners in one order for everybody. An event emitted while listeners are still
 * handling another (a listener that stops a task, say) waits its turn instead of overtaking, and a
 * listener that throws is reported and skipped rather than breaking the manager or the other listeners.
 */
import type { TaskEvent } from './types.js';

export type TaskEventListener = (event: TaskEvent) => void;

export class EventHub {
  private readonly listeners = new Set<TaskEventListener>();
  private readonly queue: TaskEvent[] = [];
  private delivering = false;

  constructor(private readonly onListenerError: (error: unknown) => void) {}

  /** Subscribes; returns the unsubscribe function. */
  subscribe(listener: TaskEventListener): () => void {
    // A wrapper per subscription, so the same function subscribed twice is two independent subscriptions.
    const subscription: TaskEventListener = (event) => listener(event);
    this.listeners.add(subscription);
    return () => {
      this.listeners.delete(subscription);
    };
  }

  emit(event: TaskEvent): void {
    this.queue.push(event);
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        for (const listener of [...this.listeners]) {
          try {
            listener(next);
          } catch (error) {
            this.onListenerError(error);
          }
        }
      }
    } finally {
      this.delivering = false;
    }
  }
}
