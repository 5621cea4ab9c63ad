import { describe, expect, it } from 'vitest';
import { stopReasonOf } from '../../src/engine/errors.js';
import { ManualClock, flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import type { StartTaskOptions, StartTaskResult } from '../../src/engine/tasks/work.js';
import { EventLog } from './support/event-log.js';
import { StagedWork } from './support/staged-work.js';

function task(work: StagedWork, overrides: Partial<StartTaskOptions> = {}): StartTaskOptions {
  return { role: 'coder', description: 'Fix the bug', prompt: 'Fix it', mode: 'background', work: work.work, ...overrides };
}

function setup(options: ConstructorParameters<typeof TaskManager>[0] = {}) {
  const clock = new ManualClock();
  const manager = new TaskManager({ clock, stopGraceMs: 2_000, onWarning: () => {}, ...options });
  const log = new EventLog(manager);
  return { clock, manager, log };
}

describe('stopping tasks', () => {
  it('stop then a late completion: the task stays stopped, and its late output is the partial output', async () => {
    const { manager, log } = setup();
    const work = new StagedWork();
    await manager.start(task(work));
    const context = await work.started;
    context.appendText('partial answer');

    const stopped = manager.stop('t1');
    expect(manager.get('t1')).toMatchObject({ status: 'stopped', stopReason: { kind: 'user' }, output: 'partial answer' });
    expect(context.signal.aborted).toBe(true);
    expect(stopReasonOf(context.signal)).toEqual({ kind: 'user' });

    work.complete('the full answer, too late');
    const final = await stopped;
    expect(final).toMatchObject({ status: 'stopped', output: 'the full answer, too late' });
    expect(final.error).toBeUndefined();
    expect(log.statuses('t1')).toEqual(['queued', 'running', 'stopped']);
    log.assertWellFormed();
  });

  it('a foreground start whose task a listener stops at its task-start resolves with the stopped task, and its work never runs', async () => {
    const { manager, log } = setup();
    const work = new StagedWork();
    manager.onEvent((event) => {
      if (event.type === 'task-start') void manager.stop(event.task.id);
    });
    const result = await manager.start(task(work, { mode: 'foreground' }));
    expect(result).toMatchObject({ backgrounded: false, task: { id: 't1', status: 'stopped', stopReason: { kind: 'user' } } });
    expect(work.calls).toBe(0);
    log.assertWellFormed();
  });

  it('a foreground start whose task a listener stops as it starts running resolves once it has ended, its work never called', async () => {
    const { manager, log } = setup();
    const work = new StagedWork();
    manager.onEvent((event) => {
      if (event.type === 'task-update' && event.task.status === 'running') void manager.stop(event.task.id);
    });
    const result = await manager.start(task(work, { mode: 'foreground' }));
    expect(result).toMatchObject({ backgrounded: false, task: { id: 't1', status: 'stopped' } });
    expect(work.calls).toBe(0);
    expect(log.types('t1')).toEqual(['task-start', 'task-update', 'task-update', 'task-end']);
    log.assertWellFormed();
  });

  it('a foreground child resolves its caller with its task-end snapshot when its parent is stopped', async () => {
    const { manager, log } = setup();
    const parentWork = new StagedWork();
    const childWork = new StagedWork();
    await manager.start(task(parentWork));
    await parentWork.started;
    const started = manager.start(task(childWork, { mode: 'foreground', parentId: 't1' }));
    const childContext = await childWork.started;
    void manager.stop('t1');
    expect(childContext.signal.aborted).toBe(true);
    childWork.complete('partial from the child');
    const result = await started;
    const end = log.events.find((event) => event.type === 'task-end' && event.task.id === 't2');
    expect(result).toMatchObject({ backgrounded: false, task: { id: 't2', status: 'stopped', stopReason: { kind: 'parent-stopped' } } });
    expect(end && 'task' in end ? end.task : undefined).toBe(result.task);
    log.assertWellFormed();
  });

  it('completion then a late stop: the task stays completed', async () => {
    const { manager, log } = setup();
    const work = new StagedWork();
    await manager.start(task(work));
    const context = await work.started;
    work.complete('all done');
    await manager.wait('t1');
    const after = await manager.stop('t1');
    expect(after).toMatchObject({ status: 'completed', output: 'all done' });
    expect(after.stopReason).toBeUndefined();
    expect(context.signal.aborted).toBe(false);
    expect(log.types('t1').filter((type) => type === 'task-end')).toHaveLength(1);
    log.assertWellFormed();
  });

  it('a queued task that is stopped never runs its work and frees its place in the queue', async () => {
    const { manager, log } = setup({ maxConcurrent: 1 });
    const first = new StagedWork();
    const second = new StagedWork();
    const third = new StagedWork();
    await manager.start(task(first));
    await manager.start(task(second));
    await manager.start(task(third));
    expect(manager.get('t2')?.status).toBe('queued');

    const stopped = await manager.stop('t2');
    expect(stopped).toMatchObject({ status: 'stopped', stopReason: { kind: 'user' } });
    expect(stopped.startedAt).toBeUndefined();
    expect(log.types('t2')).toEqual(['task-start', 'task-end']);

    first.complete('one');
    await third.started;
    await flushMicrotasks();
    expect(second.calls).toBe(0);
    expect(manager.get('t3')?.status).toBe('running');
    log.assertWellFormed();
  });

  it('stop during the switch to background: stop first keeps the caller waiting for the stopped end', async () => {
    const { manager, log, clock } = setup({ autoBackgroundMs: 1_000 });
    const work = new StagedWork({ onAbort: 'return', abortOutput: 'halfway' });
    let result: StartTaskResult | undefined;
    // Due at the same tick as the auto timer but registered before it, so the stop lands first.
    clock.setTimer(() => void manager.stop('t1'), 1_000);
    void manager.start(task(work, { mode: 'auto' })).then((value) => (result = value));
    await work.started;
    await clock.advance(1_000);
    await flushMicrotasks();
    expect(result).toMatchObject({ backgrounded: false, task: { status: 'stopped', background: false, output: 'halfway' } });
    expect(clock.pendingTimers).toBe(0); // the auto timer was cancelled by the stop
    expect(log.statuses('t1')).toEqual(['queued', 'running', 'stopped']);
    log.assertWellFormed();
  });

  it('stop during the switch to background: the switch first, then the stop — backgrounded, then stopped', async () => {
    const { manager, log, clock } = setup({ autoBackgroundMs: 1_000 });
    const work = new StagedWork({ onAbort: 'return' });
    let result: StartTaskResult | undefined;
    void manager.start(task(work, { mode: 'auto' })).then((value) => (result = value));
    await work.started;
    await clock.advance(999);
    clock.setTimer(() => void manager.stop('t1'), 1); // registered after the auto timer: fires second
    await clock.advance(1);
    expect(result).toMatchObject({ backgrounded: true, task: { status: 'running', background: true } });
    const final = await manager.wait('t1');
    expect(final).toMatchObject({ status: 'stopped', background: true });
    expect(manager.takeNotifications(null)).toMatchObject([{ taskId: 't1', status: 'stopped' }]);
    log.assertWellFormed();
  });

  it('stop cascades through three levels: all stopped, reasons name the parent, partial outputs kept', async () => {
    const { manager, log, clock } = setup();
    const root = new StagedWork({ onAbort: 'return', abortOutput: 'root partial' });
    const child = new StagedWork(); // hangs: keeps its streamed text
    const grandchild = new StagedWork({ onAbort: 'return', abortOutput: 'grandchild partial' });
    await manager.start(task(root));
    (await root.started).appendText('root text');
    await manager.start(task(child, { parentId: 't1' }));
    (await child.started).appendText('child streamed text');
    await manager.start(task(grandchild, { parentId: 't2' }));
    await grandchild.started;

    const stopping = manager.stop('t1');
    expect(manager.list().map((snapshot) => snapshot.status)).toEqual(['stopped', 'stopped', 'stopped']);
    // The child hangs; `stop` still resolves once the grace has passed.
    let resolved = false;
    void stopping.then(() => (resolved = true));
    await flushMicrotasks();
    expect(resolved).toBe(false);
    await clock.advance(2_000);
    const final = await stopping;
    expect(final).toMatchObject({ status: 'stopped', stopReason: { kind: 'user' }, output: 'root partial' });
    expect(manager.get('t2')).toMatchObject({
      status: 'stopped',
      stopReason: { kind: 'parent-stopped', parentId: 't1' },
      output: 'child streamed text',
    });
    expect(manager.get('t3')).toMatchObject({
      status: 'stopped',
      stopReason: { kind: 'parent-stopped', parentId: 't2' },
      output: 'grandchild partial',
    });
    expect(stopReasonOf(grandchild.context!.signal)).toEqual({ kind: 'parent-stopped', parentId: 't2' });
    log.assertWellFormed();
  });

  it('a hung work releases its slot on stop: the next queued task runs at once', async () => {
    const { manager, log, clock } = setup({ maxConcurrent: 1 });
    const hung = new StagedWork();
    const next = new StagedWork();
    await manager.start(task(hung));
    await hung.started;
    await manager.start(task(next));
    expect(manager.get('t2')?.status).toBe('queued');

    const stopping = manager.stop('t1');
    expect(manager.get('t2')?.status).toBe('running');
    await next.started;
    await clock.advance(2_000); // the hung work never returns; the grace ends its task
    expect((await stopping).status).toBe('stopped');
    expect(log.types('t1').at(-1)).toBe('task-end');

    hung.complete('woke up far too late');
    await flushMicrotasks();
    expect(manager.get('t1')?.status).toBe('stopped');
    expect(manager.get('t1')?.output).toBeUndefined();
    expect(log.types('t1').filter((type) => type === 'task-end')).toHaveLength(1);
    log.assertWellFormed();
  });

  it('terminal states are final: nothing a stopped task does after its end changes it or emits events', async () => {
    const { manager, log, clock } = setup();
    const work = new StagedWork();
    await manager.start(task(work));
    const context = await work.started;
    const stopping = manager.stop('t1');
    await clock.advance(2_000);
    const final = await stopping;
    const eventCount = log.events.length;

    context.appendText('zombie text');
    context.appendTranscript({ type: 'text', text: 'zombie entry' });
    context.reportUsage({ inputTokens: 100, outputTokens: 100 });
    context.setModel('zombie-model');
    work.complete('zombie result');
    await clock.advance(200_000);
    await flushMicrotasks();

    expect(log.events.length).toBe(eventCount);
    expect(manager.get('t1')).toEqual(final);
    expect(manager.transcript('t1')).toEqual([]);
    await expect(manager.start(task(new StagedWork(), { parentId: 't1' }))).rejects.toMatchObject({ kind: 'parent-ended' });
    log.assertWellFormed();
  });

  it('a failed task is not relabelled by a later stop or by a wait timeout', async () => {
    const { manager, clock, log } = setup();
    const work = new StagedWork();
    await manager.start(task(work));
    await work.started;
    const waiting = manager.wait('t1', { timeoutMs: 5_000 });
    work.fail('broken');
    expect(await waiting).toMatchObject({ status: 'failed' });
    await manager.stop('t1');
    await clock.advance(10_000);
    expect(manager.get('t1')).toMatchObject({ status: 'failed', error: 'broken' });
    expect(manager.get('t1')?.stopReason).toBeUndefined();
    log.assertWellFormed();
  });

  it('stopping a completed task still stops its running background children', async () => {
    const { manager, log } = setup();
    const parent = new StagedWork();
    const child = new StagedWork({ onAbort: 'return' });
    await manager.start(task(parent));
    await parent.started;
    await manager.start(task(child, { parentId: 't1' }));
    await child.started;
    parent.complete('parent done');
    await manager.wait('t1');

    await manager.stop('t1');
    expect(manager.get('t1')?.status).toBe('completed');
    // Its parent did not stop (it had completed), so the user's stop reached the child directly.
    expect(manager.get('t2')).toMatchObject({ status: 'stopped', stopReason: { kind: 'user' } });
    log.assertWellFormed();
  });

  it('close stops everything with reason shutdown, and start is refused afterwards', async () => {
    const { manager, log } = setup();
    const root = new StagedWork({ onAbort: 'return' });
    const child = new StagedWork({ onAbort: 'return' });
    await manager.start(task(root));
    await root.started;
    await manager.start(task(child, { parentId: 't1' }));
    await child.started;
    await manager.close();
    expect(manager.list().map((snapshot) => snapshot.stopReason)).toEqual([{ kind: 'shutdown' }, { kind: 'shutdown' }]);
    await expect(manager.start(task(new StagedWork()))).rejects.toMatchObject({ kind: 'closed' });
    log.assertWellFormed();
  });

  it('a tree stopped by shutdown is interrupted (snapshots and task-end), a user stop is stopped', async () => {
    const { manager, log } = setup();
    const stoppedByUser = new StagedWork({ onAbort: 'return' });
    await manager.start(task(stoppedByUser));
    await stoppedByUser.started;
    await manager.stop('t1');
    const root = new StagedWork({ onAbort: 'return' });
    const child = new StagedWork({ onAbort: 'return' });
    await manager.start(task(root));
    await root.started;
    await manager.start(task(child, { parentId: 't2' }));
    await child.started;

    const closing = manager.close();
    // Decided at once: the status says so while the work is still given its grace to return.
    expect(manager.get('t2')?.status).toBe('interrupted');
    await closing;
    expect(manager.list().map((snapshot) => [snapshot.id, snapshot.status])).toEqual([
      ['t1', 'stopped'],
      ['t2', 'interrupted'],
      ['t3', 'interrupted'],
    ]);
    expect(log.endOf('t1')?.status).toBe('stopped');
    expect(log.endOf('t2')).toMatchObject({ status: 'interrupted', stopReason: { kind: 'shutdown' } });
    expect(log.endOf('t3')).toMatchObject({ status: 'interrupted', stopReason: { kind: 'shutdown' } });
    expect(log.statuses('t2')).toEqual(['queued', 'running', 'interrupted']);
    log.assertWellFormed();
  });
});
