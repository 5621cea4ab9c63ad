import { describe, expect, it } from 'vitest';
import { ManualClock, flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { TaskError } from '../../src/engine/tasks/task-error.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import type { StartTaskOptions } from '../../src/engine/tasks/work.js';
import { EventLog } from './support/event-log.js';
import { StagedWork } from './support/staged-work.js';

function task(work: StagedWork, overrides: Partial<StartTaskOptions> = {}): StartTaskOptions {
  return {
    role: 'researcher',
    description: 'Find usages',
    prompt: 'Find all usages of foo',
    mode: 'foreground',
    work: work.work,
    ...overrides,
  };
}

function setup(options: ConstructorParameters<typeof TaskManager>[0] = {}) {
  const clock = new ManualClock();
  const manager = new TaskManager({ clock, onWarning: () => {}, ...options });
  const log = new EventLog(manager);
  return { clock, manager, log };
}

describe('TaskManager lifecycle', () => {
  it('runs a foreground task: the caller waits for the end; queued → running → completed', async () => {
    const { manager, log, clock } = setup();
    const work = new StagedWork();
    let settled = false;
    const started = manager.start(task(work)).then((result) => {
      settled = true;
      return result;
    });
    const context = await work.started;
    expect(context.taskId).toBe('t1');
    await clock.advance(500);
    expect(settled).toBe(false);
    expect(manager.get('t1')?.status).toBe('running');

    work.complete('found 3 usages');
    const result = await started;
    expect(result.backgrounded).toBe(false);
    expect(result.task).toMatchObject({
      id: 't1',
      status: 'completed',
      output: 'found 3 usages',
      background: false,
      depth: 0,
      rootId: 't1',
      parentId: null,
    });
    expect(result.task.startedAt).toBe(clock.now() - 500);
    expect(result.task.endedAt).toBe(clock.now());
    expect(log.statuses('t1')).toEqual(['queued', 'running', 'completed']);
    expect(log.types('t1')).toEqual(['task-start', 'task-update', 'task-end']);
    log.assertWellFormed();
  });

  it('runs a background task: the caller gets it back at once and the work goes on', async () => {
    const { manager, log } = setup();
    const work = new StagedWork();
    const result = await manager.start(task(work, { mode: 'background' }));
    expect(result.backgrounded).toBe(true);
    expect(result.task).toMatchObject({ status: 'running', background: true });
    await work.started;
    work.complete('done later');
    const final = await manager.wait(result.task.id);
    expect(final).toMatchObject({ status: 'completed', output: 'done later', background: true });
    log.assertWellFormed();
  });

  it('auto-backgrounds after autoBackgroundMs on the clock: the caller resolves, the work completes later', async () => {
    const { manager, log, clock } = setup({ autoBackgroundMs: 60_000 });
    const work = new StagedWork();
    let result: Awaited<ReturnType<TaskManager['start']>> | undefined;
    void manager.start(task(work, { mode: 'auto' })).then((value) => (result = value));
    await work.started;
    await clock.advance(59_999);
    expect(result).toBeUndefined();
    expect(manager.get('t1')?.background).toBe(false);

    await clock.advance(1);
    expect(result?.backgrounded).toBe(true);
    expect(result?.task).toMatchObject({ id: 't1', status: 'running', background: true });

    work.context?.appendText('still working');
    work.complete('finished in the background');
    const final = await manager.wait('t1');
    expect(final).toMatchObject({ status: 'completed', background: true, output: 'finished in the background' });
    log.assertWellFormed();
  });

  it('an auto task that ends before the timeout behaves as foreground, and its timer is cancelled', async () => {
    const { manager, clock } = setup({ autoBackgroundMs: 1_000 });
    const work = new StagedWork();
    const started = manager.start(task(work, { mode: 'auto', autoBackgroundMs: 10_000 }));
    await work.started;
    await clock.advance(1_500); // past the manager default: the per-task value wins
    work.complete('quick');
    const result = await started;
    expect(result).toMatchObject({ backgrounded: false, task: { status: 'completed', background: false } });
    expect(clock.pendingTimers).toBe(0);
  });

  it('work that throws fails the task with the error message, keeping the partial text', async () => {
    const { manager, log } = setup();
    const work = new StagedWork();
    const started = manager.start(task(work));
    const context = await work.started;
    context.appendText('half an answer');
    work.throw(new Error('provider exploded'));
    const { task: final } = await started;
    expect(final).toMatchObject({ status: 'failed', error: 'provider exploded', output: 'half an answer' });
    log.assertWellFormed();
  });

  it('work that reports failure fails the task with its error and output', async () => {
    const { manager } = setup();
    const work = new StagedWork();
    const started = manager.start(task(work));
    await work.started;
    work.fail('tests did not pass', 'ran 3 of 5');
    expect((await started).task).toMatchObject({ status: 'failed', error: 'tests did not pass', output: 'ran 3 of 5' });
  });

  it('work that returns something that is not a result fails the task instead of completing it', async () => {
    const { manager } = setup();
    const work = new StagedWork();
    const started = manager.start(task(work));
    await work.started;
    work.resolveWith('just a string');
    expect((await started).task).toMatchObject({ status: 'failed', error: expect.stringContaining('no valid result') });
  });

  it('streams text and transcript entries as events; a text entry becomes the partial output', async () => {
    const { manager, log } = setup();
    const work = new StagedWork();
    const started = manager.start(task(work));
    const context = await work.started;
    context.setModel('anthropic/claude-sonnet-4-5');
    context.appendText('Looking ');
    context.appendText('around.');
    context.appendTranscript({ type: 'text', text: 'Looking around.' });
    context.appendTranscript({ type: 'tool-call', toolCallId: 'c1', toolName: 'Grep', input: { pattern: 'foo' } });
    expect(manager.transcript('t1')).toEqual([
      { type: 'text', text: 'Looking around.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'Grep', input: { pattern: 'foo' } },
    ]);
    expect(manager.get('t1')).toMatchObject({ model: 'anthropic/claude-sonnet-4-5', transcriptLength: 2 });
    work.complete('done');
    await started;
    const kinds = log.forTask('t1').map((event) => (event.type === 'task-transcript' ? `transcript#${event.index}` : event.type));
    expect(kinds).toEqual([
      'task-start',
      'task-update',
      'task-update',
      'task-text-delta',
      'task-text-delta',
      'transcript#0',
      'transcript#1',
      'task-end',
    ]);
  });

  it('caps the kept transcript and says how many entries were dropped', async () => {
    const { manager } = setup({ maxTranscriptEntries: 3 });
    const work = new StagedWork();
    const started = manager.start(task(work));
    const context = await work.started;
    for (let index = 0; index < 5; index++) context.appendTranscript({ type: 'notice', text: `step ${index}` });
    work.complete('done');
    const { task: final } = await started;
    expect(final.transcriptLength).toBe(5);
    expect(manager.transcript('t1').map((entry) => (entry.type === 'notice' ? entry.text : ''))).toEqual([
      '2 earlier transcript entries were not kept (the limit is 3).',
      'step 2',
      'step 3',
      'step 4',
    ]);
  });

  it('keeps working when a listener throws, and reports it as a warning', async () => {
    const warnings: string[] = [];
    const { manager } = setup({ onWarning: (message) => warnings.push(message) });
    manager.onEvent(() => {
      throw new Error('bad listener');
    });
    const seen: string[] = [];
    manager.onEvent((event) => seen.push(event.type));
    const work = new StagedWork();
    const started = manager.start(task(work));
    await work.started;
    work.complete('ok');
    expect((await started).task.status).toBe('completed');
    expect(seen).toEqual(['task-start', 'task-update', 'task-end']);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toContain('bad listener');
  });

  it('delivers events in order to every listener even when a listener stops a task mid-event', async () => {
    const { manager, log } = setup();
    const work = new StagedWork({ onAbort: 'return' });
    const other: string[] = [];
    manager.onEvent((event) => {
      if (event.type === 'task-update' && event.task.status === 'running') void manager.stop(event.task.id);
    });
    manager.onEvent((event) => other.push(`${event.type}:${'task' in event ? event.task.status : ''}`));
    const { task: final } = await manager.start(task(work));
    expect(final.status).toBe('stopped');
    expect(other).toEqual(['task-start:queued', 'task-update:running', 'task-update:stopped', 'task-end:stopped']);
    expect(work.calls).toBe(0); // stopped before its work was ever called
    log.assertWellFormed();
  });

  it('builds the tree: parentId, rootId, depth and children', async () => {
    const { manager } = setup();
    const root = new StagedWork();
    await manager.start(task(root, { mode: 'background' }));
    await root.started;
    const child = new StagedWork();
    await manager.start(task(child, { mode: 'background', parentId: 't1' }));
    const grandchild = new StagedWork();
    await manager.start(task(grandchild, { mode: 'background', parentId: 't2' }));
    expect(manager.get('t3')).toMatchObject({ parentId: 't2', rootId: 't1', depth: 2 });
    expect(manager.children('t1').map((snapshot) => snapshot.id)).toEqual(['t2']);
    expect(manager.list().map((snapshot) => snapshot.id)).toEqual(['t1', 't2', 't3']);
  });

  it('rejects bad input with a TaskError that says what is wrong', async () => {
    const { manager } = setup();
    const work = new StagedWork();
    await expect(manager.start(task(work, { role: ' ' }))).rejects.toThrow(/non-empty role/);
    await expect(manager.start(task(work, { mode: 'sideways' as never }))).rejects.toThrow(/foreground, background or auto/);
    await expect(manager.start(task(work, { maxTokens: -5 }))).rejects.toThrow(/maxTokens/);
    await expect(manager.start(task(work, { parentId: 'nope' }))).rejects.toMatchObject({ kind: 'unknown-task' });
    await expect(manager.stop('nope')).rejects.toBeInstanceOf(TaskError);
    await expect(manager.wait('nope')).rejects.toThrow(/no task nope/);
    expect(() => new TaskManager({ maxConcurrent: 0 })).toThrow(/maxConcurrent/);
    expect(manager.list()).toEqual([]);
  });

  it('refuses a subtask under a task that has ended', async () => {
    const { manager } = setup();
    const work = new StagedWork();
    const started = manager.start(task(work));
    await work.started;
    work.complete('done');
    await started;
    await expect(manager.start(task(new StagedWork(), { parentId: 't1' }))).rejects.toMatchObject({ kind: 'parent-ended' });
  });

  it('gives unique ids, skipping ids already taken, and accepts an injected generator', async () => {
    const ids = ['a', 'a', 'b'];
    const { manager } = setup({ generateId: () => ids.shift() ?? 'c' });
    await manager.start(task(new StagedWork(), { mode: 'background' }));
    await manager.start(task(new StagedWork(), { mode: 'background' }));
    expect(manager.list().map((snapshot) => snapshot.id)).toEqual(['a', 'b']);
  });

  it('wait resolves with the current snapshot at its timeout, and rejects when its signal aborts', async () => {
    const { manager, clock } = setup();
    const work = new StagedWork();
    await manager.start(task(work, { mode: 'background' }));
    await work.started;
    const timedOut = manager.wait('t1', { timeoutMs: 1_000 });
    await clock.advance(1_000);
    expect((await timedOut).status).toBe('running');

    const controller = new AbortController();
    const abandoned = manager.wait('t1', { signal: controller.signal });
    controller.abort({ kind: 'user' });
    await expect(abandoned).rejects.toMatchObject({ code: 'stopped' });
    expect(manager.get('t1')?.status).toBe('running');
    await flushMicrotasks();
    expect(clock.pendingTimers).toBe(0);
  });
});
