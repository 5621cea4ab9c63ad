/**
 * How the host sends a snapshot: in parts, newest delegations first, so that the sidebar shows the top of
 * a long history after handling a few hundred tasks instead of all of them. Each message is still cloned
 * and validated whole on the way in (protocol.ts); only the first one stands between `ready` and the first
 * paint, and the rest arrive right behind it, one per turn of the host's event loop (task-view-provider.ts).
 *
 * A part holds whole delegations (a root and every task with its `rootId`), so a tree is never shown with
 * some of its subagents missing, and delegations come in the order the tree shows them: newest first.
 */
import type { HostMessage, HostMessageOf } from './protocol.js';
import type { ProtocolTask } from './protocol-data.js';

export interface SnapshotPartOptions {
  /**
   * Tasks in the first message, at least (whole delegations are never split): enough to fill a tall
   * sidebar even with every delegation expanded (80 rows of 22 px: 1,760 px). Default 80: everything in
   * it is cloned and validated before the first paint (B4 in docs/performance.md), the rest comes behind.
   */
  firstPartTasks?: number;
  /**
   * Tasks in each later message, at least. Default 100: the host sends one part per turn of its event
   * loop, which it shares with every extension and the editor, and 100 tasks (copied, redacted, checked,
   * serialized: about 40 µs each) keep a turn to a few milliseconds (B15 in docs/performance.md).
   */
  partTasks?: number;
}

/** What a snapshot holds: the `snapshot` message without `type` and `complete`. */
export type SnapshotContent = Omit<HostMessageOf<'snapshot'>, 'type' | 'complete'>;

/** The messages that carry one snapshot: a `snapshot`, then `snapshot-part`s; the last says `complete`. */
export function snapshotMessages(content: SnapshotContent, options: SnapshotPartOptions = {}): HostMessage[] {
  const parts = splitSnapshotTasks(content.tasks, options);
  return parts.map((tasks, index) => snapshotPartMessage(content, tasks, index, index === parts.length - 1));
}

/** Part `index` of a snapshot (`tasks`: that part's): the `snapshot` itself for the first, a `snapshot-part` after. */
export function snapshotPartMessage(
  content: Omit<SnapshotContent, 'tasks'>,
  tasks: ProtocolTask[],
  index: number,
  complete: boolean,
): HostMessage {
  return index === 0
    ? { type: 'snapshot', now: content.now, tasks, changes: content.changes, setup: content.setup, complete }
    : { type: 'snapshot-part', now: content.now, tasks, complete };
}

/**
 * Splits tasks into parts of whole delegations, newest delegation first (by its earliest task, which is
 * its root); within a delegation the given order is kept. Always at least one part, possibly empty.
 */
export function splitSnapshotTasks<Task extends Pick<ProtocolTask, 'rootId' | 'createdAt'>>(
  tasks: readonly Task[],
  options: SnapshotPartOptions = {},
): Task[][] {
  const firstPartTasks = options.firstPartTasks ?? 80;
  const partTasks = options.partTasks ?? 100;
  const delegations = new Map<string, { tasks: Task[]; createdAt: number }>();
  for (const task of tasks) {
    const delegation = delegations.get(task.rootId);
    if (!delegation) delegations.set(task.rootId, { tasks: [task], createdAt: task.createdAt });
    else {
      delegation.tasks.push(task);
      if (task.createdAt < delegation.createdAt) delegation.createdAt = task.createdAt;
    }
  }
  const newestFirst = [...delegations.entries()].sort(
    ([leftId, left], [rightId, right]) => right.createdAt - left.createdAt || (leftId < rightId ? -1 : leftId > rightId ? 1 : 0),
  );
  const parts: Task[][] = [[]];
  for (const [, delegation] of newestFirst) {
    let part = parts[parts.length - 1];
    if (part.length >= (parts.length === 1 ? firstPartTasks : partTasks)) parts.push((part = []));
    for (const task of delegation.tasks) part.push(task);
  }
  return parts;
}
