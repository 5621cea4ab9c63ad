/**
 * Concurrency slots: at most `capacity` items hold one at a time, the others wait in a queue. Each item
 * holds at most one slot; the manager gives a slot back whenever its task stops doing work (it ends, is
 * stopped, or only waits), so the limit counts work, not tasks.
 *
 * The queue is ordered by priority, then first come first served. The manager uses this to finish work
 * already under way before starting new work: a task resuming after a wait goes before a new subtask,
 * and a subtask of a run that has started goes before a new run.
 */

export type SlotPriority = 'resume' | 'subtask' | 'new-run';

const priorityOrder: readonly SlotPriority[] = ['resume', 'subtask', 'new-run'];

export class SlotPool<Item> {
  private inUse = 0;
  private readonly queues = new Map<SlotPriority, Item[]>(priorityOrder.map((priority) => [priority, []]));
  private waitingCount = 0;

  /**
   * @param capacity slots available at once (at least 1).
   * @param grant called when an item gets a slot; the item must eventually `release` it.
   */
  constructor(
    private capacity: number,
    private readonly grant: (item: Item) => void,
  ) {}

  /**
   * Changes how many slots there are. More: waiting items get the new slots at once. Fewer: nothing is
   * taken from holders; new grants wait until the count in use is below the new capacity.
   */
  resize(capacity: number): void {
    this.capacity = capacity;
    this.pump();
  }

  /** Slots currently held. */
  get active(): number {
    return this.inUse;
  }

  /** Items waiting for a slot. */
  get queued(): number {
    return this.waitingCount;
  }

  /** Queues `item`; it is granted a slot at once if one is free and nothing of equal or higher priority waits. */
  enqueue(item: Item, priority: SlotPriority): void {
    (this.queues.get(priority) as Item[]).push(item);
    this.waitingCount++;
    this.pump();
  }

  /** Takes a waiting item out of the queue (it will never be granted); false if it was not waiting. */
  remove(item: Item): boolean {
    for (const queue of this.queues.values()) {
      const index = queue.indexOf(item);
      if (index < 0) continue;
      queue.splice(index, 1);
      this.waitingCount--;
      return true;
    }
    return false;
  }

  /** A holder gives its slot back; the slot goes to the first waiting item at once. */
  release(): void {
    if (this.inUse <= 0) throw new Error('Internal error in the task manager: a slot was released that no task held.');
    this.inUse--;
    this.pump();
  }

  private pump(): void {
    while (this.inUse < this.capacity && this.waitingCount > 0) {
      const item = this.takeNext();
      this.inUse++;
      this.grant(item);
    }
  }

  private takeNext(): Item {
    for (const priority of priorityOrder) {
      const queue = this.queues.get(priority) as Item[];
      if (queue.length > 0) {
        this.waitingCount--;
        return queue.shift() as Item;
      }
    }
    throw new Error('Internal error in the task manager: the slot queue count is wrong.');
  }
}
