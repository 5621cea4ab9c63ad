// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { click, clickTwistie, makeTask, mountHarness, rowFigures, snapshotMessage, startTime } from './support/harness.js';

const researcher = makeTask({
  id: 't2',
  parentId: 't1',
  rootId: 't1',
  depth: 1,
  role: 'researcher',
  description: 'Find usages',
  createdAt: startTime + 1,
  treeUsage: { inputTokens: 12_000, outputTokens: 345 },
});
const root = makeTask({ id: 't1', description: 'Refactor the parser', treeUsage: { inputTokens: 20_000, outputTokens: 1_000 } });
const queued = makeTask({
  id: 't3',
  parentId: 't1',
  rootId: 't1',
  depth: 1,
  role: 'tester',
  description: 'Run tests',
  status: 'queued',
  startedAt: undefined,
  createdAt: startTime + 2,
});

describe('the task tree', () => {
  it('posts ready when mounted and renders nothing before the snapshot', () => {
    const harness = mountHarness();
    expect(harness.posted).toEqual([{ type: 'ready' }]);
    harness.scheduler.runFrame();
    expect(harness.rows()).toHaveLength(0);
  });

  it('renders delegations with their subagents nested, with the exact ARIA contract', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([researcher, root, queued]));
    const tree = harness.root.querySelector('[role="tree"]')!;
    expect(tree).not.toBeNull();
    expect(harness.rows().map((row) => row.getAttribute('data-task-id'))).toEqual(['t1', 't2', 't3']);
    expect(harness.rows().every((row) => row.parentElement === tree)).toBe(true);

    const parent = harness.row('t1');
    expect(parent.getAttribute('aria-label')).toBe('coordinator: Refactor the parser \u2014 running');
    expect(parent.getAttribute('aria-level')).toBe('1');
    expect(parent.getAttribute('aria-expanded')).toBe('true');
    expect(parent.getAttribute('aria-selected')).toBe('false');
    expect(parent.getAttribute('data-status')).toBe('running');

    const child = harness.row('t2');
    expect(child.getAttribute('aria-label')).toBe('researcher: Find usages \u2014 running');
    expect(child.getAttribute('aria-level')).toBe('2');
    expect(child.hasAttribute('aria-expanded')).toBe(false);
    expect(child.querySelector('.tree-status')!.className).toContain('codicon-loading codicon-modifier-spin');
    expect(rowFigures(child)).toEqual({ elapsed: '0s', tokens: '12.3k tokens' });
    expect(child.querySelector('button[aria-label^="Stop"]')!.getAttribute('aria-label')).toBe('Stop researcher: Find usages');

    expect(harness.row('t3').getAttribute('data-status')).toBe('queued');
    expect(harness.row('t3').querySelector('.tree-status')!.className).toContain('codicon-clock');
    expect(harness.row('t3').querySelector('button[aria-label^="Stop"]')).not.toBeNull();
  });

  it('keeps every row to at most five elements: status codicon, label, figures and Stop', () => {
    const harness = mountHarness();
    harness.send(
      snapshotMessage([
        researcher,
        root,
        queued,
        makeTask({ id: 'done', status: 'completed', createdAt: startTime - 1, endedAt: startTime + 2_000 }),
      ]),
    );
    for (const row of harness.rows()) expect(row.querySelectorAll('*').length + 1).toBeLessThanOrEqual(5);
    const child = harness.row('t2');
    expect(Array.from(child.children).map((element) => element.className)).toEqual([
      'codicon codicon-loading codicon-modifier-spin tree-status status-running',
      'tree-label',
      'tree-figures',
      'tree-stop icon-button codicon codicon-debug-stop',
    ]);
    expect(child.querySelector('.tree-status')!.getAttribute('aria-hidden')).toBe('true');
    // The role is drawn before the description from data-role (media/sidebar.css).
    expect(child.querySelector('.tree-label')!.getAttribute('data-role')).toBe('researcher');
    expect(child.querySelector('.tree-label')!.textContent).toBe('Find usages');
    expect(rowFigures(harness.row('t3'))).toEqual({ elapsed: '', tokens: '0 tokens' });
    expect(rowFigures(harness.row('done'))).toEqual({ elapsed: '2s', tokens: '0 tokens' });
    expect(harness.row('done').querySelectorAll('*')).toHaveLength(3);
  });

  it('selects a parent row clicked beside its twistie, and toggles it only on the twistie', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([root, researcher]));
    click(harness.row('t1'), { clientX: 100 });
    harness.scheduler.runFrame();
    expect(harness.row('t1').getAttribute('aria-selected')).toBe('true');
    expect(harness.row('t1').getAttribute('aria-expanded')).toBe('true');
    clickTwistie(harness.row('t1'));
    expect(harness.row('t1').getAttribute('aria-expanded')).toBe('false');
    // A child's twistie place is indented with it, and a row without children has nothing to toggle.
    clickTwistie(harness.row('t1'));
    clickTwistie(harness.row('t2'));
    harness.scheduler.runFrame();
    expect(harness.row('t2').getAttribute('aria-selected')).toBe('true');
  });

  it('updates a row in place when its status changes, removing the Stop button when it ends', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([root, researcher]));
    const before = harness.row('t2');
    harness.send({
      type: 'task-upsert',
      now: startTime + 5_000,
      tasks: [{ ...researcher, status: 'completed', endedAt: startTime + 4_000 }],
    });
    const after = harness.row('t2');
    expect(after).toBe(before);
    expect(after.getAttribute('data-status')).toBe('completed');
    expect(after.getAttribute('aria-label')).toBe('researcher: Find usages \u2014 completed');
    expect(after.querySelector('.tree-status')!.className).toContain('codicon-pass');
    expect(after.querySelector('button')).toBeNull();
    for (const [status, icon] of [
      ['failed', 'codicon-error'],
      ['stopped', 'codicon-debug-stop'],
    ] as const) {
      harness.send({ type: 'task-upsert', now: startTime, tasks: [{ ...researcher, status }] });
      expect(harness.row('t2').querySelector('.tree-status')!.className).toContain(icon);
    }
  });

  it('posts exactly {type: "stop-task", taskId} when Stop is clicked, without selecting the row', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([root, researcher]));
    harness.posted.length = 0;
    click(harness.row('t2').querySelector('button[aria-label^="Stop"]')!);
    expect(harness.posted).toEqual([{ type: 'stop-task', taskId: 't2' }]);
    harness.scheduler.runFrame();
    expect(harness.row('t2').getAttribute('aria-selected')).toBe('false');
  });

  it('collapses and expands with the twistie, and remembers it in the saved state', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([root, researcher, queued]));
    clickTwistie(harness.row('t1'));
    expect(harness.rows().map((row) => row.getAttribute('data-task-id'))).toEqual(['t1']);
    expect(harness.row('t1').getAttribute('aria-expanded')).toBe('false');
    expect(harness.savedState.value).toMatchObject({ collapsedIds: ['t1'] });
    clickTwistie(harness.row('t1'));
    expect(harness.rows()).toHaveLength(3);
  });

  it('removes tasks, and clears history except the kept tasks', () => {
    const harness = mountHarness();
    const other = makeTask({ id: 'x', createdAt: startTime - 10, status: 'completed' });
    harness.send(snapshotMessage([root, researcher, queued, other]));
    harness.send({ type: 'task-removed', taskIds: ['t3'] });
    expect(harness.rows().map((row) => row.getAttribute('data-task-id'))).toEqual(['t1', 't2', 'x']);
    harness.send({ type: 'history-cleared', keptTaskIds: ['t1', 't2'] });
    expect(harness.rows().map((row) => row.getAttribute('data-task-id'))).toEqual(['t1', 't2']);
  });

  it('ticks the elapsed time of running rows once a second with one timer, and stops when none run', async () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([root, { ...researcher, status: 'completed', endedAt: startTime + 3_000 }], undefined, startTime));
    expect(rowFigures(harness.row('t1')).elapsed).toBe('0s');
    expect(harness.clock.pendingTimers).toBe(1);
    await harness.clock.advance(5_000);
    expect(rowFigures(harness.row('t1')).elapsed).toBe('5s');
    expect(rowFigures(harness.row('t2')).elapsed).toBe('3s');
    expect(harness.clock.pendingTimers).toBe(1);
    harness.send({ type: 'task-upsert', now: startTime + 5_000, tasks: [{ ...root, status: 'completed', endedAt: startTime + 5_000 }] });
    expect(harness.clock.pendingTimers).toBe(0);
  });

  it('measures elapsed time on the host clock, even when the local clock differs', () => {
    const harness = mountHarness();
    // The host's clock is an hour ahead; its task started 7 s before its `now`.
    const hostNow = startTime + 3_600_000;
    harness.send(snapshotMessage([{ ...root, startedAt: hostNow - 7_000 }], undefined, hostNow));
    expect(rowFigures(harness.row('t1')).elapsed).toBe('7s');
  });
});
