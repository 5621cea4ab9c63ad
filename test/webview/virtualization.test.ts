// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { type ProtocolTask } from '../../src/shared/protocol.js';
import { makeTask, mountHarness, rowFigures, snapshotMessage, startTime } from './support/harness.js';

/** 2,000 delegations of 5 tasks each (a root and 4 subagents): 10,000 rows when expanded. */
function longHistory(): ProtocolTask[] {
  const tasks: ProtocolTask[] = [];
  for (let root = 0; root < 2_000; root++) {
    const rootId = `r${root}`;
    const createdAt = startTime + root * 100;
    tasks.push(makeTask({ id: rootId, status: 'completed', createdAt, endedAt: createdAt + 50 }));
    for (let child = 0; child < 4; child++) {
      tasks.push(
        makeTask({
          id: `${rootId}-${child}`,
          parentId: rootId,
          rootId,
          depth: 1,
          role: 'worker',
          status: 'completed',
          createdAt: createdAt + child + 1,
        }),
      );
    }
  }
  return tasks;
}

describe('a long history', () => {
  it('puts only the visible rows (plus overscan) in the DOM, with a sizer for the full height', () => {
    const harness = mountHarness({ sidebar: { tree: { rowHeight: 22, overscan: 5, defaultViewportHeight: 440 } } });
    harness.send(snapshotMessage(longHistory()));
    expect(harness.sidebar.store.tasks.size).toBe(10_000);
    const rows = harness.rows();
    expect(rows.length).toBeLessThan(100);
    expect(rows.length).toBe(25); // 20 visible + 5 overscan below
    expect(rows[0].getAttribute('data-task-id')).toBe('r1999');
    expect(harness.root.querySelector<HTMLElement>('.tree-sizer')!.style.height).toBe(`${10_000 * 22}px`);
  });

  it('renders other rows when scrolled, at their positions, reusing at most a screenful of elements', () => {
    const harness = mountHarness({ sidebar: { tree: { rowHeight: 22, overscan: 5, defaultViewportHeight: 440 } } });
    harness.send(snapshotMessage(longHistory()));
    const tree = harness.root.querySelector<HTMLElement>('[role="tree"]')!;
    tree.scrollTop = 22 * 5_000; // row 5,000 = delegation 1,000 from the top = r999
    tree.dispatchEvent(new Event('scroll'));
    harness.scheduler.runFrame();
    const rows = harness.rows();
    expect(rows.length).toBeLessThan(100);
    const first = harness.row('r999');
    expect(first.style.top).toBe(`${5_000 * 22}px`);
    expect(rows.some((row) => row.getAttribute('data-task-id') === 'r1999')).toBe(true); // the tab stop stays
    expect(
      rows
        .filter((row) => row.getAttribute('data-task-id') !== 'r1999')
        .every((row) => {
          const top = parseInt(row.style.top, 10);
          return top >= 22 * 4_995 && top < 22 * 5_025;
        }),
    ).toBe(true);
    expect(harness.savedState.value).toMatchObject({ scrollTop: 22 * 5_000 });
  });

  it('restores the saved scroll position when the webview is recreated', () => {
    const harness = mountHarness({
      savedState: { selectedTaskId: null, collapsedIds: [], scrollTop: 22 * 300 },
      sidebar: { tree: { defaultViewportHeight: 440 } },
    });
    harness.send(snapshotMessage(longHistory()));
    expect(harness.root.querySelector<HTMLElement>('[role="tree"]')!.scrollTop).toBe(22 * 300);
    expect(harness.rows().some((row) => row.getAttribute('data-task-id') === 'r1939')).toBe(true); // row 300 = root 60 from the top
  });
});

describe('render coalescing', () => {
  it('folds many messages in one frame into one render', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([makeTask({ id: 't1' })]));
    const requestedBefore = harness.scheduler.requested;
    for (let index = 0; index < 500; index++) {
      harness.sidebar.receive({
        type: 'task-upsert',
        now: startTime,
        tasks: [
          makeTask({ id: 't1', usage: { inputTokens: index, outputTokens: 0 }, treeUsage: { inputTokens: index * 10, outputTokens: 0 } }),
        ],
      });
    }
    expect(harness.scheduler.requested - requestedBefore).toBe(1);
    // Nothing rendered yet: the DOM still shows the snapshot.
    expect(rowFigures(harness.row('t1')).tokens).toBe('0 tokens');
    harness.scheduler.runFrame();
    expect(rowFigures(harness.row('t1')).tokens).toBe('4.9k tokens');
    expect(harness.scheduler.pending).toBe(0);
  });

  it('renders at once for keyboard focus moves, and the frame already requested does nothing more', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([makeTask({ id: 'a', createdAt: 2 }), makeTask({ id: 'b', createdAt: 1 })]));
    harness.sidebar.receive({ type: 'task-upsert', now: startTime, tasks: [makeTask({ id: 'b', createdAt: 1, status: 'failed' })] });
    harness.row('a').dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    expect(harness.row('b').getAttribute('data-status')).toBe('failed');
    expect(document.activeElement).toBe(harness.row('b'));
    harness.scheduler.runFrame();
    expect(harness.row('b').getAttribute('tabindex')).toBe('0');
  });
});
