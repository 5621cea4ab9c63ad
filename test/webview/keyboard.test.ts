import { describe, expect, it } from 'vitest';
import { treeKeyAction } from '../../src/webview/keyboard.js';
import { flattenTasks } from '../../src/webview/tree-model.js';
import { makeTask } from './support/harness.js';

const tasks = new Map(
  [
    makeTask({ id: 'root', createdAt: 2 }),
    makeTask({ id: 'child', parentId: 'root', createdAt: 3 }),
    makeTask({ id: 'leaf', parentId: 'child', createdAt: 4 }),
    makeTask({ id: 'older', createdAt: 1 }),
  ].map((task) => [task.id, task]),
);

describe('treeKeyAction', () => {
  const { rows, indexById } = flattenTasks(tasks, new Set());
  const act = (key: string, focused: string | null, pageSize = 10) => treeKeyAction(key, rows, indexById, focused, pageSize);

  it('moves focus up, down, home, end and by pages, clamped at the ends', () => {
    expect(act('ArrowDown', 'root')).toEqual({ kind: 'focus', taskId: 'child' });
    expect(act('ArrowUp', 'child')).toEqual({ kind: 'focus', taskId: 'root' });
    expect(act('ArrowUp', 'root')).toEqual({ kind: 'focus', taskId: 'root' });
    expect(act('ArrowDown', 'older')).toEqual({ kind: 'focus', taskId: 'older' });
    expect(act('End', 'root')).toEqual({ kind: 'focus', taskId: 'older' });
    expect(act('Home', 'leaf')).toEqual({ kind: 'focus', taskId: 'root' });
    expect(act('PageDown', 'root', 3)).toEqual({ kind: 'focus', taskId: 'leaf' });
    expect(act('PageUp', 'older', 3)).toEqual({ kind: 'focus', taskId: 'child' });
  });

  it('expands, enters, collapses and climbs with Right and Left', () => {
    expect(act('ArrowRight', 'root')).toEqual({ kind: 'focus', taskId: 'child' });
    expect(act('ArrowRight', 'leaf')).toBeUndefined();
    expect(act('ArrowLeft', 'leaf')).toEqual({ kind: 'focus', taskId: 'child' });
    expect(act('ArrowLeft', 'child')).toEqual({ kind: 'collapse', taskId: 'child' });
    expect(act('ArrowLeft', 'older')).toBeUndefined();
    const collapsed = flattenTasks(tasks, new Set(['root']));
    expect(treeKeyAction('ArrowRight', collapsed.rows, collapsed.indexById, 'root', 10)).toEqual({ kind: 'expand', taskId: 'root' });
    expect(treeKeyAction('ArrowLeft', collapsed.rows, collapsed.indexById, 'root', 10)).toBeUndefined();
  });

  it('selects with Enter and Space, starts on the first row, and ignores other keys', () => {
    expect(act('Enter', 'child')).toEqual({ kind: 'select', taskId: 'child' });
    expect(act(' ', 'child')).toEqual({ kind: 'select', taskId: 'child' });
    expect(act('ArrowDown', null)).toEqual({ kind: 'focus', taskId: 'root' });
    expect(act('End', null)).toEqual({ kind: 'focus', taskId: 'older' });
    expect(act('Delete', 'child')).toEqual({ kind: 'stop', taskId: 'child' });
    expect(act('s', 'child')).toBeUndefined();
  });
});
