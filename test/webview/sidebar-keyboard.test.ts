// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { makeTask, mountHarness, pressKey, snapshotMessage, startTime } from './support/harness.js';

function treeHarness() {
  const harness = mountHarness();
  harness.send(
    snapshotMessage([
      makeTask({ id: 'root', createdAt: startTime + 2 }),
      makeTask({ id: 'child', parentId: 'root', createdAt: startTime + 3 }),
      makeTask({ id: 'leaf', parentId: 'child', createdAt: startTime + 4 }),
      makeTask({ id: 'older', createdAt: startTime + 1 }),
    ]),
  );
  return harness;
}

const focusedId = () => document.activeElement?.getAttribute('data-task-id');

describe('keyboard navigation', () => {
  it('has exactly one tab stop, the first row until something is focused', () => {
    const harness = treeHarness();
    expect(
      harness
        .rows()
        .filter((row) => row.getAttribute('tabindex') === '0')
        .map((row) => row.getAttribute('data-task-id')),
    ).toEqual(['root']);
  });

  it('moves focus with the arrows, Home and End, carrying the tab stop along', () => {
    const harness = treeHarness();
    harness.row('root').focus();
    pressKey(harness.row('root'), 'ArrowDown');
    expect(focusedId()).toBe('child');
    pressKey(document.activeElement!, 'ArrowDown');
    pressKey(document.activeElement!, 'ArrowDown');
    expect(focusedId()).toBe('older');
    pressKey(document.activeElement!, 'Home');
    expect(focusedId()).toBe('root');
    pressKey(document.activeElement!, 'End');
    expect(focusedId()).toBe('older');
    pressKey(document.activeElement!, 'ArrowUp');
    expect(focusedId()).toBe('leaf');
    harness.scheduler.runFrame();
    expect(
      harness
        .rows()
        .filter((row) => row.getAttribute('tabindex') === '0')
        .map((row) => row.getAttribute('data-task-id')),
    ).toEqual(['leaf']);
  });

  it('collapses and expands with Left and Right, and climbs to the parent', () => {
    const harness = treeHarness();
    harness.row('leaf').focus();
    pressKey(harness.row('leaf'), 'ArrowLeft');
    expect(focusedId()).toBe('child');
    pressKey(document.activeElement!, 'ArrowLeft');
    expect(harness.row('child').getAttribute('aria-expanded')).toBe('false');
    expect(harness.rows().map((row) => row.getAttribute('data-task-id'))).toEqual(['root', 'child', 'older']);
    expect(focusedId()).toBe('child');
    pressKey(document.activeElement!, 'ArrowRight');
    expect(harness.row('child').getAttribute('aria-expanded')).toBe('true');
    pressKey(document.activeElement!, 'ArrowRight');
    expect(focusedId()).toBe('leaf');
  });

  it('selects with Enter and leaves unhandled keys alone', () => {
    const harness = treeHarness();
    harness.row('child').focus();
    const ignored = new KeyboardEvent('keydown', { key: 'Insert', bubbles: true, cancelable: true });
    harness.row('child').dispatchEvent(ignored);
    expect(ignored.defaultPrevented).toBe(false);
    expect(harness.posted).toEqual([{ type: 'ready' }]);
    pressKey(harness.row('child'), 'Enter');
    harness.scheduler.runFrame();
    expect(harness.posted).toEqual([{ type: 'ready' }, { type: 'select-task', taskId: 'child' }]);
    expect(harness.row('child').getAttribute('aria-selected')).toBe('true');
  });

  it('scrolls a long list to keep the focused row visible', () => {
    const harness = mountHarness({ sidebar: { tree: { rowHeight: 22, defaultViewportHeight: 220, overscan: 2 } } });
    harness.send(
      snapshotMessage(Array.from({ length: 200 }, (_, index) => makeTask({ id: `t${index}`, createdAt: startTime + 1000 - index }))),
    );
    harness.row('t0').focus();
    pressKey(harness.row('t0'), 'End');
    expect(focusedId()).toBe('t199');
    const tree = harness.root.querySelector<HTMLElement>('[role="tree"]')!;
    expect(tree.scrollTop).toBe(200 * 22 - 220);
    expect(harness.rows().length).toBeLessThan(30);
  });
});
