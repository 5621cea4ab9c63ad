/**
 * The manager's tasks by id, in creation order (a parent always before its children), with the tree
 * walks the manager needs. Parent links only point to tasks added earlier, so the tree is never cyclic.
 */
import { type TaskRecord, hasEnded } from './task-record.js';
import { TaskError } from './task-error.js';

export class TaskTree {
  private readonly records = new Map<string, TaskRecord>();

  get size(): number {
    return this.records.size;
  }

  get(id: string): TaskRecord | undefined {
    return this.records.get(id);
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  /** An id from `generate` that no task has; throws a `TaskError` when it keeps giving used or empty ones. */
  freshId(generate: () => string): string {
    for (let attempt = 0; attempt <= this.records.size + 100; attempt++) {
      const id = generate();
      if (typeof id === 'string' && id !== '' && !this.records.has(id)) return id;
    }
    throw new TaskError(
      'invalid-options',
      'generateId keeps returning empty ids or ids already in use; it must return a fresh id each call.',
    );
  }

  /** Every task in creation order (a copy: safe to change the tree while iterating it). */
  all(): TaskRecord[] {
    return [...this.records.values()];
  }

  /** Adds a task and links it under its parent, if its parent is present. */
  add(record: TaskRecord): void {
    this.records.set(record.id, record);
    if (record.parentId !== null) this.records.get(record.parentId)?.childIds.push(record.id);
  }

  /** Puts `record` in the place of the task with its id (a resumed task), keeping the order and links. */
  replace(record: TaskRecord): void {
    if (!this.records.has(record.id)) throw new TaskError('unknown-task', `There is no task ${record.id} to replace.`);
    this.records.set(record.id, record);
  }

  /** Puts `earlier` (loaded history) before the tasks already present, keeping creation order. */
  prepend(earlier: TaskRecord[]): void {
    const current = this.all();
    this.records.clear();
    for (const record of earlier) this.add(record);
    for (const record of current) this.records.set(record.id, record);
  }

  childrenOf(record: TaskRecord | undefined): TaskRecord[] {
    if (!record) return [];
    return record.childIds.flatMap((id) => this.records.get(id) ?? []);
  }

  /** The task and everything below it, parents before children. */
  subtreeOf(top: TaskRecord): TaskRecord[] {
    const result: TaskRecord[] = [];
    const pending = [top];
    for (let next = pending.pop(); next; next = pending.pop()) {
      result.push(next);
      pending.push(...this.childrenOf(next).reverse());
    }
    return result;
  }

  /** The task, its parent, its grandparent, … up to the root. */
  ancestryOf(record: TaskRecord): TaskRecord[] {
    const chain: TaskRecord[] = [];
    let node: TaskRecord | undefined = record;
    while (node && chain.length <= record.depth) {
      chain.push(node);
      node = node.parentId === null ? undefined : this.records.get(node.parentId);
    }
    return chain;
  }

  /** Removes every tree whose tasks have all ended; returns the removed ids. */
  removeEndedTrees(): string[] {
    const removed: string[] = [];
    for (const record of this.all()) {
      if (!this.records.has(record.id)) continue; // already removed with its tree
      const isTreeTop = record.parentId === null || !this.records.has(record.parentId);
      if (!isTreeTop) continue;
      const tree = this.subtreeOf(record);
      if (!tree.every(hasEnded)) continue;
      for (const node of tree) {
        this.records.delete(node.id);
        removed.push(node.id);
      }
    }
    return removed;
  }
}
