import { describe, expect, it } from 'vitest';
import { type ProtocolTask } from '../../src/shared/protocol.js';
import { ancestorsOf, flattenTasks, visibleRange } from '../../src/webview/tree-model.js';
import { makeTask } from './support/harness.js';

function taskMap(tasks: ProtocolTask[]): Map<string, ProtocolTask> {
  return new Map(tasks.map((task) => [task.id, task]));
}

const forest = taskMap([
  makeTask({ id: 'old', createdAt: 1 }),
  makeTask({ id: 'old-a', parentId: 'old', createdAt: 2 }),
  makeTask({ id: 'new', createdAt: 10 }),
  makeTask({ id: 'new-b', parentId: 'new', createdAt: 12 }),
  makeTask({ id: 'new-a', parentId: 'new', createdAt: 11 }),
  makeTask({ id: 'new-a-1', parentId: 'new-a', createdAt: 13 }),
]);

describe('flattenTasks', () => {
  it('puts the newest delegation first and subagents beneath in the order they started', () => {
    const { rows, indexById } = flattenTasks(forest, new Set());
    expect(rows.map((row) => [row.id, row.level])).toEqual([
      ['new', 1],
      ['new-a', 2],
      ['new-a-1', 3],
      ['new-b', 2],
      ['old', 1],
      ['old-a', 2],
    ]);
    expect(indexById.get('new-b')).toBe(3);
    const newA = rows[1];
    expect(newA).toMatchObject({ parentId: 'new', hasChildren: true, expanded: true, setSize: 2, positionInSet: 1 });
    expect(rows[3]).toMatchObject({ hasChildren: false, setSize: 2, positionInSet: 2 });
  });

  it('hides the descendants of collapsed rows', () => {
    const { rows, indexById } = flattenTasks(forest, new Set(['new']));
    expect(rows.map((row) => row.id)).toEqual(['new', 'old', 'old-a']);
    expect(rows[0]).toMatchObject({ hasChildren: true, expanded: false });
    expect(indexById.has('new-a')).toBe(false);
  });

  it('shows a task whose parent is unknown as a root, and survives a parent cycle', () => {
    const orphan = flattenTasks(taskMap([makeTask({ id: 'child', parentId: 'gone' })]), new Set());
    expect(orphan.rows.map((row) => [row.id, row.level])).toEqual([['child', 1]]);
    const cycle = flattenTasks(
      taskMap([makeTask({ id: 'a', parentId: 'b' }), makeTask({ id: 'b', parentId: 'a' }), makeTask({ id: 'c', parentId: 'c' })]),
      new Set(),
    );
    expect(cycle.rows.map((row) => row.id).sort()).toEqual(['a', 'b', 'c']);
  });
});

describe('ancestorsOf', () => {
  it('lists parents up to the root, nearest first', () => {
    expect(ancestorsOf(forest, 'new-a-1')).toEqual(['new-a', 'new']);
    expect(ancestorsOf(forest, 'new')).toEqual([]);
  });
});

describe('visibleRange', () => {
  it('covers the viewport plus overscan, clamped to the rows', () => {
    expect(visibleRange(0, 220, 22, 10_000, 5)).toEqual({ start: 0, end: 15 });
    expect(visibleRange(22 * 100, 220, 22, 10_000, 5)).toEqual({ start: 95, end: 115 });
    expect(visibleRange(22 * 9_995, 220, 22, 10_000, 5)).toEqual({ start: 9_990, end: 10_000 });
    expect(visibleRange(0, 220, 22, 3, 5)).toEqual({ start: 0, end: 3 });
  });
});
