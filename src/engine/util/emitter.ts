/**
 * Delivers events to listeners in one order for everybody. An event emitted while listeners are still
 * handling another (a listener that stops a task, say) waits its turn instead of overtaking, and a
 * listener that throws is reported and skipped rather than breaking the emitter or the other listeners.
 */
export type Listener<Event> = (event: Event) => void;

export class Emitter<Event> {
  /**
   * Replaced, never changed, on every (un)subscribe: an emit walks the list as it was when the event went
   * out without copying it for every event (the task manager emits dozens an agent task: B1).
   */
  private listeners: readonly Listener<Event>[] = [];
  private readonly queue: Event[] = [];
  private delivering = false;

  /** `onListenerError` hears what a listener threw. Default: nothing (the other listeners still run). */
  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  /** Subscribes; returns the unsubscribe function. */
  subscribe(listener: Listener<Event>): () => void {
    // A wrapper per subscription, so the same function subscribed twice is two independent subscriptions.
    const subscription: Listener<Event> = (event) => listener(event);
    this.listeners = [...this.listeners, subscription];
    return () => {
      this.listeners = this.listeners.filter((each) => each !== subscription);
    };
  }

  emit(event: Event): void {
    this.queue.push(event);
    if (this.delivering) return;
    this.delivering = true;
    try {
      while (this.queue.length > 0) {
        const next = this.queue.shift() as Event;
        for (const listener of this.listeners) {
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

  /** Drops every listener (on dispose). */
  clear(): void {
    this.listeners = [];
  }
}
