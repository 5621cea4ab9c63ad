// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { type HostMessage, type ProtocolTask } from '../../src/shared/protocol.js';
import { snapshotMessages, splitSnapshotTasks } from '../../src/shared/protocol-snapshot.js';
import { configuredSetup, makeTask, mountHarness, startTime } from './support/harness.js';

/** `delegations` delegations of a root and `children` subagents, oldest first, as the host lists them. */
function history(delegations: number, children = 4): ProtocolTask[] {
  const tasks: ProtocolTask[] = [];
  for (let delegation = 0; delegation < delegations; delegation++) {
    const rootId = `r${delegation}`;
    const createdAt = startTime + delegation * 100;
    tasks.push(makeTask({ id: rootId, status: 'completed', createdAt, endedAt: createdAt + 50 }));
    for (let child = 0; child < children; child++) {
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

function messagesFor(tasks: ProtocolTask[], firstPartTasks: number, partTasks: number): HostMessage[] {
  return snapshotMessages({ now: startTime, tasks, changes: [], setup: configuredSetup }, { firstPartTasks, partTasks });
}

const ids = (rows: HTMLElement[]) => rows.map((row) => row.getAttribute('data-task-id'));

describe('splitting a snapshot', () => {
  it('puts whole delegations in each part, newest first, at least the part size each but the last', () => {
    const tasks = history(10); // 50 tasks
    const parts = splitSnapshotTasks(tasks, { firstPartTasks: 7, partTasks: 12 });
    expect(parts.map((part) => part.length)).toEqual([10, 15, 15, 10]);
    expect(parts[0].map((task) => task.id)).toEqual(['r9', 'r9-0', 'r9-1', 'r9-2', 'r9-3', 'r8', 'r8-0', 'r8-1', 'r8-2', 'r8-3']);
    expect(
      parts
        .flat()
        .map((task) => task.id)
        .sort(),
    ).toEqual(tasks.map((task) => task.id).sort());
    for (const part of parts) {
      const roots = new Set(part.map((task) => task.rootId));
      for (const rootId of roots) expect(part.filter((task) => task.rootId === rootId)).toHaveLength(5);
    }
  });

  it('sends a short history as one complete snapshot, and no history as an empty one', () => {
    expect(messagesFor(history(3), 200, 2_000)).toEqual([
      { type: 'snapshot', now: startTime, tasks: expect.any(Array), changes: [], setup: configuredSetup, complete: true },
    ]);
    expect(messagesFor([], 200, 2_000)).toEqual([
      { type: 'snapshot', now: startTime, tasks: [], changes: [], setup: configuredSetup, complete: true },
    ]);
  });

  it('marks only the last message complete, and sends changes and setup with the first', () => {
    const messages = messagesFor(history(10), 10, 20);
    expect(messages.map((message) => [message.type, 'complete' in message ? message.complete : undefined])).toEqual([
      ['snapshot', false],
      ['snapshot-part', false],
      ['snapshot-part', true],
    ]);
  });
});

describe('a snapshot in parts', () => {
  it('shows the newest delegations from the first part, and ends with the same tree as one snapshot', () => {
    const tasks = history(40); // 200 tasks, 200 rows
    const whole = mountHarness({ sidebar: { tree: { defaultViewportHeight: 22 * 300 } } });
    whole.send(messagesFor(tasks, 1_000, 1_000)[0]);
    expect(whole.rows()).toHaveLength(200);

    const inParts = mountHarness({ sidebar: { tree: { defaultViewportHeight: 22 * 300 } } });
    const messages = messagesFor(tasks, 20, 50);
    expect(messages).toHaveLength(5); // 20 + 50 + 50 + 50 + 30 tasks
    inParts.send(messages[0]);
    expect(ids(inParts.rows())).toEqual(ids(whole.rows()).slice(0, 20));
    for (const message of messages.slice(1)) inParts.send(message);
    expect(ids(inParts.rows())).toEqual(ids(whole.rows()));
    expect(inParts.rows().map((row) => row.getAttribute('aria-posinset'))).toEqual(
      whole.rows().map((row) => row.getAttribute('aria-posinset')),
    );
    expect(inParts.sidebar.store.complete).toBe(true);
    expect(inParts.logs).toEqual([]);
  });

  it('keeps a restored selection and collapsed rows for tasks of later parts, and restores them when they come', () => {
    const tasks = history(10);
    const harness = mountHarness({
      savedState: { selectedTaskId: 'r1-2', collapsedIds: ['r0', 'gone'], scrollTop: 0 },
      sidebar: { tree: { defaultViewportHeight: 22 * 60 } },
    });
    const messages = messagesFor(tasks, 10, 10); // r9 r8 | r7 r6 | … | r1 r0
    harness.send(messages[0]);
    expect(harness.posted).toEqual([{ type: 'ready' }]); // its task has not come: nothing to ask for yet
    expect(harness.savedState.value).toEqual({ selectedTaskId: 'r1-2', collapsedIds: ['r0', 'gone'], scrollTop: 0 });
    for (const message of messages.slice(1, -1)) harness.send(message);
    expect(harness.posted).toEqual([{ type: 'ready' }]);
    harness.send(messages.at(-1)!);
    expect(harness.posted).toEqual([{ type: 'ready' }, { type: 'select-task', taskId: 'r1-2' }]);
    expect(harness.row('r1-2').getAttribute('aria-selected')).toBe('true');
    expect(harness.row('r0').getAttribute('aria-expanded')).toBe('false');
    expect(harness.rows().some((row) => row.getAttribute('data-task-id') === 'r0-0')).toBe(false);
    // Once the snapshot is complete, what never came is forgotten.
    expect(harness.savedState.value).toEqual({ selectedTaskId: 'r1-2', collapsedIds: ['r0'], scrollTop: 0 });
  });

  it('forgets a restored selection only when the last part came without its task', () => {
    const harness = mountHarness({ savedState: { selectedTaskId: 'gone', collapsedIds: [], scrollTop: 0 } });
    const messages = messagesFor(history(4), 5, 5);
    harness.send(messages[0]);
    expect(harness.sidebar.store.selectedTaskId).toBe('gone');
    for (const message of messages.slice(1)) harness.send(message);
    expect(harness.sidebar.store.selectedTaskId).toBeNull();
    expect(harness.posted).toEqual([{ type: 'ready' }]);
    expect(harness.savedState.value).toMatchObject({ selectedTaskId: null });
  });

  it('restores a saved scroll position once the rows below it have come', () => {
    const harness = mountHarness({
      savedState: { selectedTaskId: null, collapsedIds: [], scrollTop: 22 * 100 },
      sidebar: { tree: { defaultViewportHeight: 440 } },
    });
    const messages = messagesFor(history(40), 50, 50);
    const tree = harness.root.querySelector<HTMLElement>('[role="tree"]')!;
    harness.send(messages[0]); // 50 rows: not enough for row 100 and a screenful below it
    expect(tree.scrollTop).toBe(0);
    expect(harness.savedState.value).toMatchObject({ scrollTop: 22 * 100 });
    harness.send(messages[1]); // 100 rows: still not
    expect(tree.scrollTop).toBe(0);
    harness.send(messages[2]); // 150 rows
    expect(tree.scrollTop).toBe(22 * 100);
    expect(harness.rows().some((row) => row.getAttribute('data-task-id') === 'r19')).toBe(true); // row 100 = delegation 20 from the top
  });

  it('lays the tree out again once per 20 parts and at the last, not for every part of a long history', () => {
    const harness = mountHarness();
    // A first part that fills the view (no saved scroll position waits), then 40 parts of one delegation.
    const messages = messagesFor(history(50), 50, 5);
    const height = () => harness.root.querySelector<HTMLElement>('[role="tree"]')!.firstElementChild as HTMLElement;
    const laidOut = () => parseFloat(height().style.height);
    harness.send(messages[0]);
    const first = laidOut();
    for (const message of messages.slice(1, 20)) harness.send(message);
    expect(laidOut()).toBe(first); // parts 2 to 20 are in the store, not laid out yet
    expect(harness.sidebar.store.tasks.size).toBe(50 + 19 * 5);
    harness.send(messages[20]);
    expect(laidOut()).toBe((first * (50 + 20 * 5)) / 50);
    for (const message of messages.slice(21)) harness.send(message);
    expect(laidOut()).toBe((first * 250) / 50);
  });

  it('replaces everything with a new snapshot, whatever its parts', () => {
    const harness = mountHarness();
    for (const message of messagesFor(history(6), 5, 5)) harness.send(message);
    harness.send(messagesFor([makeTask({ id: 'only' })], 5, 5)[0]);
    expect(ids(harness.rows())).toEqual(['only']);
  });
});
