/**
 * Tree keyboard navigation as in VS Code's trees (and the WAI-ARIA tree pattern): a pure mapping from a
 * key and the visible rows to what should happen, so it is testable without a DOM.
 */
import { type TreeRow } from './tree-model.js';

export type TreeKeyAction =
  | { kind: 'focus'; taskId: string }
  | { kind: 'expand'; taskId: string }
  | { kind: 'collapse'; taskId: string }
  | { kind: 'select'; taskId: string }
  /** Stop the row's task (the tree view acts only when it can be stopped). */
  | { kind: 'stop'; taskId: string };

/**
 * - Up/Down: previous/next row. Home/End: first/last row. PageUp/PageDown: a page of rows.
 * - Right: expand a collapsed row, or go to the first child of an expanded one.
 * - Left: collapse an expanded row, or go to the parent.
 * - Enter/Space: select (shows the detail pane).
 * - Delete: stop the row's task, as its Stop button does (the button is out of the Tab order: the row is
 *   the tree's one tab stop, so the key is how the keyboard reaches Stop from the row).
 * Returns undefined for keys the tree does not handle (they keep their default behaviour).
 */
export function treeKeyAction(
  key: string,
  rows: readonly TreeRow[],
  indexById: ReadonlyMap<string, number>,
  focusedId: string | null,
  pageSize: number,
): TreeKeyAction | undefined {
  if (rows.length === 0) return undefined;
  const current = focusedId !== null ? indexById.get(focusedId) : undefined;
  const focusAt = (index: number): TreeKeyAction => ({
    kind: 'focus',
    taskId: rows[Math.max(0, Math.min(rows.length - 1, index))].id,
  });
  if (current === undefined) {
    // Nothing focused yet: any navigation key lands on the first row.
    return ['ArrowDown', 'ArrowUp', 'Home', 'PageDown', 'PageUp', 'ArrowLeft', 'ArrowRight'].includes(key)
      ? focusAt(0)
      : key === 'End'
        ? focusAt(rows.length - 1)
        : undefined;
  }
  const row = rows[current];
  switch (key) {
    case 'ArrowDown':
      return focusAt(current + 1);
    case 'ArrowUp':
      return focusAt(current - 1);
    case 'Home':
      return focusAt(0);
    case 'End':
      return focusAt(rows.length - 1);
    case 'PageDown':
      return focusAt(current + Math.max(1, pageSize - 1));
    case 'PageUp':
      return focusAt(current - Math.max(1, pageSize - 1));
    case 'ArrowRight':
      if (!row.hasChildren) return undefined;
      return row.expanded ? focusAt(current + 1) : { kind: 'expand', taskId: row.id };
    case 'ArrowLeft':
      if (row.hasChildren && row.expanded) return { kind: 'collapse', taskId: row.id };
      return row.parentId !== null ? { kind: 'focus', taskId: row.parentId } : undefined;
    case 'Enter':
    case ' ':
      return { kind: 'select', taskId: row.id };
    case 'Delete':
      return { kind: 'stop', taskId: row.id };
    default:
      return undefined;
  }
}
