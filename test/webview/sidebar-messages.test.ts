// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { type WebviewMessage } from '../../src/shared/protocol.js';
import { mountSidebar } from '../../src/webview/app.js';
import { configuredSetup, makeTask, ManualFrameScheduler, mountHarness, snapshotMessage, startTime } from './support/harness.js';

describe('messages from the host', () => {
  it('drops malformed and unknown messages, logs why, and changes nothing', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([makeTask({ id: 't1' })]));
    const malformed = [
      { type: 'task-upsert', now: startTime, tasks: [{ ...makeTask({ id: 't1' }), status: 'exploded' }] },
      { type: 'task-upsert', now: startTime, tasks: [{ ...makeTask({ id: 't1', status: 'failed' }), apiKey: 'sk-secret' }] },
      { type: 'task-removed', taskIds: 't1' },
      { type: 'self-destruct' },
      'snapshot',
      null,
    ];
    for (const message of malformed) harness.send(message);
    expect(harness.logs).toHaveLength(malformed.length);
    expect(harness.logs[0]).toMatch(/^dropped message "task-upsert": tasks\.0\.status/);
    expect(harness.logs[3]).toContain('"self-destruct"');
    expect(harness.logs.join('\n')).not.toContain('sk-secret');
    expect(harness.row('t1').getAttribute('data-status')).toBe('running');
  });

  it('by default logs to the console and to the host', () => {
    const root = document.createElement('div');
    const posted: WebviewMessage[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const sidebar = mountSidebar({
        root,
        api: { postMessage: (message) => posted.push(message), getState: () => undefined, setState: () => {} },
        scheduler: new ManualFrameScheduler(),
      });
      sidebar.receive({ type: 'nonsense' });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(posted).toEqual([{ type: 'ready' }, { type: 'log', level: 'warn', message: expect.stringContaining('"nonsense"') }]);
      sidebar.dispose();
    } finally {
      warn.mockRestore();
    }
  });

  it('a new snapshot replaces everything', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([makeTask({ id: 'a' }), makeTask({ id: 'b' })]));
    harness.send(snapshotMessage([makeTask({ id: 'c' })]));
    expect(harness.rows().map((row) => row.getAttribute('data-task-id'))).toEqual(['c']);
  });
});

describe('state across webview lifetimes', () => {
  it('restores the selection and collapsed rows, and asks the host for the selected transcript after the snapshot', () => {
    const harness = mountHarness({ savedState: { selectedTaskId: 'child', collapsedIds: ['other'], scrollTop: 0 } });
    expect(harness.posted).toEqual([{ type: 'ready' }]);
    harness.send(
      snapshotMessage([
        makeTask({ id: 'root', createdAt: 2 }),
        makeTask({ id: 'child', parentId: 'root', createdAt: 3 }),
        makeTask({ id: 'other', createdAt: 1 }),
        makeTask({ id: 'other-child', parentId: 'other', createdAt: 4 }),
      ]),
    );
    expect(harness.posted).toEqual([{ type: 'ready' }, { type: 'select-task', taskId: 'child' }]);
    expect(harness.row('child').getAttribute('aria-selected')).toBe('true');
    expect(harness.row('other').getAttribute('aria-expanded')).toBe('false');
    expect(harness.rows().map((row) => row.getAttribute('data-task-id'))).toEqual(['root', 'child', 'other']);
    expect(harness.root.querySelector<HTMLElement>('.detail')!.hidden).toBe(false);
  });

  it('forgets a saved selection whose task is gone, and survives garbage in the saved state', () => {
    const harness = mountHarness({ savedState: { selectedTaskId: 'gone', collapsedIds: 'not an array', scrollTop: -5 } });
    harness.send(snapshotMessage([makeTask({ id: 'a' })]));
    expect(harness.posted).toEqual([{ type: 'ready' }]);
    expect(harness.savedState.value).toEqual({ selectedTaskId: null, collapsedIds: [], scrollTop: 0 });
  });

  it('reveals a task on request: expands its ancestors, selects it and asks for its transcript', () => {
    const harness = mountHarness({ savedState: { selectedTaskId: null, collapsedIds: ['root'], scrollTop: 0 } });
    harness.send(snapshotMessage([makeTask({ id: 'root' }), makeTask({ id: 'child', parentId: 'root', createdAt: startTime + 1 })]));
    expect(harness.rows()).toHaveLength(1);
    harness.send({ type: 'reveal-task', taskId: 'child' });
    expect(harness.row('child').getAttribute('aria-selected')).toBe('true');
    expect(harness.row('child').getAttribute('tabindex')).toBe('0');
    expect(harness.posted.at(-1)).toEqual({ type: 'select-task', taskId: 'child' });
  });
});

describe('setup changes', () => {
  it('switches from the empty state to the tree when the first task arrives', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([], configuredSetup));
    expect(harness.root.querySelector<HTMLElement>('.empty-state')!.hidden).toBe(false);
    expect(harness.root.querySelector<HTMLElement>('[role="tree"]')!.hidden).toBe(true);
    harness.send({ type: 'task-upsert', now: startTime, tasks: [makeTask({ id: 't1' })] });
    expect(harness.root.querySelector<HTMLElement>('.empty-state')!.hidden).toBe(true);
    expect(harness.root.querySelector<HTMLElement>('[role="tree"]')!.hidden).toBe(false);
    expect(harness.rows()).toHaveLength(1);
  });
});
