/**
 * Concurrency slots with a FIFO queue. A slot can be shared: a foreground child runs in its waiting
 * parent's slot (the parent is blocked on it anyway), so the slot is freed only when its last holder
 * lets go. Freed slots go to the oldest waiting item at once.
 */

/** One unit of concurrency; `holders` counts the tasks running in it. */
export interface Slot {
  holders: number;
}

export class SlotPool<Item> {
  private inUse = 0;
  private readonly waiting: Item[] = [];

  /**
   * @param capacity slots available at once (at least 1).
   * @param grant called when an item gets a slot; it must eventually `release` that slot.
   */
  constructor(
    private readonly capacity: number,
    private readonly grant: (item: Item, slot: Slot) => void,
  ) {}

  /** Slots currently held. */
  get active(): number {
    return this.inUse;
  }

  /** Items waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Queues `item` behind the others; it is granted a slot at once if one is free. */
  enqueue(item: Item): void {
    this.waiting.push(item);
    this.pump();
  }

  /** Takes a waiting item out of the queue (it will never be granted); false if it was not waiting. */
  remove(item: Item): boolean {
    const index = this.waiting.indexOf(item);
    if (index < 0) return false;
    this.waiting.splice(index, 1);
    return true;
  }

  /** Adds a holder to a slot already in use; it then needs one more `release`. */
  share(slot: Slot): Slot {
    slot.holders++;
    return slot;
  }

  /** One holder lets go; when the last one does, the slot goes to the next waiting item. */
  release(slot: Slot): void {
    if (slot.holders <= 0) return;
    slot.holders--;
    if (slot.holders > 0) return;
    this.inUse--;
    this.pump();
  }

  private pump(): void {
    while (this.inUse < this.capacity && this.waiting.length > 0) {
      const item = this.waiting.shift() as Item;
      this.inUse++;
      this.grant(item, { holders: 1 });
    }
  }
}
