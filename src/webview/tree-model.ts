/**
 * The task forest flattened into the rows a tree shows: each delegation is a root (newest first), its
 * subagents nested beneath in the order they started; collapsed rows hide their descendants.
 */
import { type ProtocolTask } from '../shared/protocol.js';

export interface TreeRow {
  id: string;
  /** 1 for a root (`aria-level`). */
  level: number;
  /** The visible parent row, or null for a root. */
  parentId: string | null;
  hasChildren: boolean;
  /** Meaningful only with children. */
  expanded: boolean;
  /** Siblings including this row (`aria-setsize`) and this row's 1-based place (`aria-posinset`). */
  setSize: number;
  positionInSet: number;
}

export interface FlatTree {
  rows: TreeRow[];
  /** Row index by task id, for visible rows only. */
  indexById: Map<string, number>;
}

/**
 * Flattens `tasks` into visible rows. A task whose parent is unknown (removed from the history, say) is
 * shown as a root rather than lost. The walk is iterative and visits each task once, so even a malformed
 * parent cycle cannot loop or hide tasks: a cycle is shown as a subtree under one of its tasks.
 */
export function flattenTasks(tasks: ReadonlyMap<string, ProtocolTask>, collapsed: ReadonlySet<string>): FlatTree {
  const childrenByParent = groupChildren(tasks);
  const rows: TreeRow[] = [];
  const indexById = new Map<string, number>();
  const visited = new Set<string>();
  // Depth-first with an explicit stack. Collapsed subtrees are walked too (without rows), so that after
  // the walk every task not visited is known to sit in a parent cycle.
  type Frame = { task: ProtocolTask; level: number; parentId: string | null; setSize: number; positionInSet: number; visible: boolean };
  const stack: Frame[] = [];
  const walk = (roots: ProtocolTask[]) => {
    pushSiblings(stack, roots, 1, null, true);
    while (stack.length > 0) {
      const frame = stack.pop()!;
      const id = frame.task.id;
      if (visited.has(id)) continue;
      visited.add(id);
      const children = childrenByParent.get(id) ?? [];
      const expanded = !collapsed.has(id);
      if (frame.visible) {
        indexById.set(id, rows.length);
        rows.push({
          id,
          level: frame.level,
          parentId: frame.parentId,
          hasChildren: children.length > 0,
          expanded,
          setSize: frame.setSize,
          positionInSet: frame.positionInSet,
        });
      }
      pushSiblings(stack, children, frame.level + 1, id, frame.visible && expanded);
    }
  };
  walk(childrenByParent.get(null) ?? []);
  if (visited.size < tasks.size) {
    for (const task of tasks.values()) if (!visited.has(task.id)) walk([task]);
  }
  return { rows, indexById };
}

function pushSiblings(
  stack: Array<{ task: ProtocolTask; level: number; parentId: string | null; setSize: number; positionInSet: number; visible: boolean }>,
  siblings: ProtocolTask[],
  level: number,
  parentId: string | null,
  visible: boolean,
): void {
  // Pushed in reverse so the first sibling is popped first.
  for (let index = siblings.length - 1; index >= 0; index--) {
    stack.push({ task: siblings[index], level, parentId, setSize: siblings.length, positionInSet: index + 1, visible });
  }
}

function groupChildren(tasks: ReadonlyMap<string, ProtocolTask>): Map<string | null, ProtocolTask[]> {
  const groups = new Map<string | null, ProtocolTask[]>();
  for (const task of tasks.values()) {
    const parent = task.parentId !== null && task.parentId !== task.id && tasks.has(task.parentId) ? task.parentId : null;
    let siblings = groups.get(parent);
    if (!siblings) groups.set(parent, (siblings = []));
    siblings.push(task);
  }
  for (const [parent, siblings] of groups) {
    // Roots newest first (the latest delegation on top); subagents oldest first (the order they ran in).
    const direction = parent === null ? -1 : 1;
    siblings.sort((a, b) => direction * (a.createdAt - b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
  return groups;
}

/** Ids from the task's parent up to its root, nearest first (for revealing a task). */
export function ancestorsOf(tasks: ReadonlyMap<string, ProtocolTask>, taskId: string): string[] {
  const ancestors: string[] = [];
  const seen = new Set<string>([taskId]);
  let parentId = tasks.get(taskId)?.parentId ?? null;
  while (parentId !== null && tasks.has(parentId) && !seen.has(parentId)) {
    ancestors.push(parentId);
    seen.add(parentId);
    parentId = tasks.get(parentId)!.parentId;
  }
  return ancestors;
}

/** Which visible rows fit a viewport, with `overscan` extra rows on each side; `end` is exclusive. */
export function visibleRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  rowCount: number,
  overscan: number,
): { start: number; end: number } {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + viewportHeight) / rowHeight);
  return { start: Math.max(0, Math.min(rowCount, first - overscan)), end: Math.min(rowCount, last + overscan) };
}
