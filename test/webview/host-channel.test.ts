import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { HostChannel } from '../../src/shared/host-channel.js';
import { type HostMessage, type WebviewMessage } from '../../src/shared/protocol.js';
import { configuredSetup, makeTask, snapshotMessage } from './support/harness.js';

function channel(options: { batchMs?: number } = {}) {
  const posted: HostMessage[] = [];
  const received: WebviewMessage[] = [];
  const logs: string[] = [];
  const clock = new ManualClock();
  let snapshots = 0;
  const host = new HostChannel({
    post: (message) => posted.push(message),
    snapshot: () => {
      snapshots++;
      return snapshotMessage([makeTask({ id: `s${snapshots}` })]) as Extract<HostMessage, { type: 'snapshot' }>;
    },
    onMessage: (message) => received.push(message),
    log: (line) => logs.push(line),
    clock,
    ...options,
  });
  return { host, posted, received, logs, clock };
}

describe('HostChannel', () => {
  it('posts nothing before ready, then a fresh snapshot, then batches', async () => {
    const { host, posted, received, clock } = channel();
    host.send({ type: 'task-removed', taskIds: ['x'] });
    expect(posted).toEqual([]);
    host.receive({ type: 'ready' });
    expect(host.ready).toBe(true);
    expect(posted.map((message) => message.type)).toEqual(['snapshot']);
    expect(received).toEqual([{ type: 'ready' }]);

    host.send({ type: 'task-upsert', now: 1, tasks: [makeTask({ id: 'a', status: 'queued' }), makeTask({ id: 'b' })] });
    host.send({ type: 'task-upsert', now: 2, tasks: [makeTask({ id: 'a', status: 'running' })] });
    host.send({ type: 'text-delta', taskId: 'a', text: 'Hel' });
    host.send({ type: 'text-delta', taskId: 'a', text: 'lo' });
    host.send({ type: 'text-delta', taskId: 'b', text: '!' });
    expect(posted).toHaveLength(1);
    await clock.advance(16);
    expect(posted.slice(1)).toEqual([
      { type: 'task-upsert', now: 2, tasks: [makeTask({ id: 'a', status: 'running' }), makeTask({ id: 'b' })] },
      { type: 'text-delta', taskId: 'a', text: 'Hello' },
      { type: 'text-delta', taskId: 'b', text: '!' },
    ]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('drops malformed webview messages with a log line and tracks the selection', () => {
    const { host, received, logs } = channel();
    host.receive({ type: 'run-command', command: 'workbench.action.terminal.new' });
    host.receive({ type: 'select-task', taskId: 't1', extra: true });
    expect(received).toEqual([]);
    expect(logs).toHaveLength(2);
    host.receive({ type: 'ready' });
    host.receive({ type: 'select-task', taskId: 't1' });
    expect(host.selectedTaskId).toBe('t1');
    host.receive({ type: 'ready' });
    expect(host.selectedTaskId).toBeNull();
  });

  it('refuses to post a message the protocol does not allow, such as one carrying a key', () => {
    const { host, posted, logs } = channel({ batchMs: 0 });
    host.receive({ type: 'ready' });
    host.send({ type: 'setup-state', setup: { ...configuredSetup, apiKey: 'sk-secret' } as typeof configuredSetup });
    expect(posted.map((message) => message.type)).toEqual(['snapshot']);
    expect(logs[0]).toMatch(/not sent, dropped message "setup-state"/);
    expect(logs[0]).not.toContain('sk-secret');
  });

  it('forgets queued messages on reset and answers the next ready with a new snapshot', async () => {
    const { host, posted, clock } = channel();
    host.receive({ type: 'ready' });
    host.send({ type: 'task-removed', taskIds: ['s1'] });
    host.reset();
    await clock.advance(100);
    expect(posted.map((message) => message.type)).toEqual(['snapshot']);
    host.send({ type: 'task-removed', taskIds: ['s1'] });
    host.receive({ type: 'ready' });
    expect(posted.map((message) => (message.type === 'snapshot' ? message.tasks[0].id : message.type))).toEqual(['s1', 's2']);
  });
});
