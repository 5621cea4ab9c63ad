// @vitest-environment jsdom
/**
 * What a keyboard and screen-reader user gets from the tree: Delete on a row stops its task (the Stop
 * button is out of the Tab order, the row being the tree's one tab stop), said by `aria-keyshortcuts`;
 * and a polite live region that says a run starting and a task ending or waiting, not every token count.
 */
import { describe, expect, it } from 'vitest';
import { makeTask, mountHarness, pressKey, snapshotMessage, startTime } from './support/harness.js';

const upsert = (...tasks: ReturnType<typeof makeTask>[]) => ({ type: 'task-upsert', now: startTime + 1000, tasks });

describe('Stop from the row by keyboard', () => {
  it('stops a running row with Delete, and does nothing on a finished one', () => {
    const harness = mountHarness();
    harness.send(
      snapshotMessage([
        makeTask({ id: 'run', role: 'researcher', description: 'Find usages' }),
        makeTask({ id: 'done', status: 'completed', createdAt: startTime - 1 }),
      ]),
    );
    const running = harness.row('run');
    expect(running.getAttribute('aria-keyshortcuts')).toBe('Delete');
    running.focus();
    pressKey(running, 'Delete');
    expect(harness.posted).toContainEqual({ type: 'stop-task', taskId: 'run' });

    const done = harness.row('done');
    expect(done.getAttribute('aria-keyshortcuts')).toBeNull();
    const before = harness.posted.length;
    pressKey(done, 'Delete');
    expect(harness.posted.slice(before).filter((message) => message.type === 'stop-task')).toEqual([]);
  });
});

describe('state changes said to screen readers', () => {
  it('says a new run, and a task that ends or waits, in a polite status region', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([makeTask({ id: 'old', status: 'completed', description: 'Old run' })]));
    const region = harness.root.querySelector('[role="status"]')!;
    expect(region.getAttribute('aria-live')).toBe('polite');
    // The snapshot (the history as it was) is not news.
    expect(region.textContent).toBe('');

    harness.send(upsert(makeTask({ id: 'r', role: 'coordinator', description: 'Fix the parser' })));
    expect(region.textContent).toBe('coordinator: Fix the parser \u2014 running');

    // A subagent starting is not said; its tokens changing is not said.
    harness.send(upsert(makeTask({ id: 'c', parentId: 'r', role: 'researcher', description: 'Read the parser' })));
    harness.send(
      upsert(
        makeTask({
          id: 'c',
          parentId: 'r',
          role: 'researcher',
          description: 'Read the parser',
          treeUsage: { inputTokens: 10, outputTokens: 2 },
        }),
      ),
    );
    expect(region.textContent).toBe('coordinator: Fix the parser \u2014 running');

    harness.send(upsert(makeTask({ id: 'c', parentId: 'r', role: 'researcher', description: 'Read the parser', status: 'waiting' })));
    expect(region.textContent).toBe('researcher: Read the parser \u2014 waiting');
    harness.send(
      upsert(
        makeTask({ id: 'c', parentId: 'r', role: 'researcher', description: 'Read the parser', status: 'completed' }),
        makeTask({ id: 'r', description: 'Fix the parser', status: 'failed' }),
      ),
    );
    expect(region.textContent).toBe('researcher: Read the parser \u2014 completed. coordinator: Fix the parser \u2014 failed');
  });
});
