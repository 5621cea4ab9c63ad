import { describe, expect, it } from 'vitest';
import { describeStopReason, stopReasonOf } from '../../src/engine/errors.js';
import { ManualClock, flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { formatNotice } from '../../src/engine/tasks/notifications.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import type { StartTaskOptions } from '../../src/engine/tasks/work.js';
import { EventLog } from './support/event-log.js';
import { StagedWork } from './support/staged-work.js';

function task(work: StagedWork, overrides: Partial<StartTaskOptions> = {}): StartTaskOptions {
  return { role: 'researcher', description: 'Survey the code', prompt: 'Survey', mode: 'background', work: work.work, ...overrides };
}

async function tree(manager: TaskManager, options: { rootBudget?: number } = {}) {
  const root = new StagedWork({ onAbort: 'return', abortOutput: 'root partial' });
  const child = new StagedWork({ onAbort: 'return', abortOutput: 'child partial' });
  const grandchild = new StagedWork(); // hangs after abort
  await manager.start(task(root, { maxTokens: options.rootBudget }));
  await manager.start(task(child, { parentId: 't1' }));
  await manager.start(task(grandchild, { parentId: 't2' }));
  return { root: await root.started, child: await child.started, grandchild: await grandchild.started, works: { root, child, grandchild } };
}

describe('usage and budgets', () => {
  it('rolls usage up to every ancestor, with task-update events for each change', async () => {
    const manager = new TaskManager({ clock: new ManualClock() });
    const log = new EventLog(manager);
    const { root, child, grandchild } = await tree(manager);
    grandchild.reportUsage({ inputTokens: 100, outputTokens: 10 });
    child.reportUsage({ inputTokens: 20, outputTokens: 2 });
    root.reportUsage({ inputTokens: 3, outputTokens: 1 });
    expect(manager.get('t3')).toMatchObject({
      usage: { inputTokens: 100, outputTokens: 10 },
      treeUsage: { inputTokens: 100, outputTokens: 10 },
    });
    expect(manager.get('t2')).toMatchObject({
      usage: { inputTokens: 20, outputTokens: 2 },
      treeUsage: { inputTokens: 120, outputTokens: 12 },
    });
    expect(manager.get('t1')).toMatchObject({
      usage: { inputTokens: 3, outputTokens: 1 },
      treeUsage: { inputTokens: 123, outputTokens: 13 },
    });
    const rootUpdates = log.forTask('t1').filter((event) => event.type === 'task-update' && event.task.treeUsage.inputTokens > 0);
    expect(rootUpdates.map((event) => ('task' in event ? event.task.treeUsage.inputTokens : 0))).toEqual([100, 120, 123]);
    // Bad numbers from work are ignored, not added.
    grandchild.reportUsage({ inputTokens: Number.NaN, outputTokens: -5 });
    expect(manager.get('t1')?.treeUsage).toEqual({ inputTokens: 123, outputTokens: 13 });
    log.assertWellFormed();
  });

  it("holds an ended task's equal spending once: a task without subtasks, on one model, shares its tree's usage and cost", async () => {
    const manager = new TaskManager({ clock: new ManualClock() });
    const { root, child, grandchild, works } = await tree(manager);
    grandchild.reportUsage({ inputTokens: 100, outputTokens: 10 });
    child.reportUsage({ inputTokens: 20, outputTokens: 2 });
    root.reportUsage({ inputTokens: 3, outputTokens: 1 });
    works.grandchild.complete('found');
    await manager.wait('t3');
    const leaf = manager.get('t3');
    // One object where the record held two (B6: objects a finished task keeps); the values are those it spent.
    expect(leaf?.treeUsage).toBe(leaf?.usage);
    expect(leaf?.treeCost).toBe(leaf?.cost);
    expect(leaf).toMatchObject({ usage: { inputTokens: 100, outputTokens: 10 }, treeUsage: { inputTokens: 100, outputTokens: 10 } });
    // A task whose subtasks spent too keeps its tree's own figures.
    works.child.complete('done');
    await manager.wait('t2');
    expect(manager.get('t2')).toMatchObject({
      usage: { inputTokens: 20, outputTokens: 2 },
      treeUsage: { inputTokens: 120, outputTokens: 12 },
    });
    expect(manager.get('t2')?.treeUsage).not.toBe(manager.get('t2')?.usage);
    works.root.complete('all done');
    await manager.wait('t1');
  });

  it('keeps the usage and cost of each snapshot as they were: frozen, shared until the task spends again', async () => {
    const manager = new TaskManager({ clock: new ManualClock() });
    const { root, child } = await tree(manager);
    child.reportUsage({ inputTokens: 20, outputTokens: 2 });
    const before = manager.get('t2');
    const again = manager.get('t2');
    expect(
      before &&
        Object.isFrozen(before.usage) &&
        Object.isFrozen(before.treeUsage) &&
        Object.isFrozen(before.cost) &&
        Object.isFrozen(before.treeCost),
    ).toBe(true);
    // Nothing was spent between the two: they share the values instead of copying them.
    expect(again?.usage).toBe(before?.usage);
    expect(again?.treeCost).toBe(before?.treeCost);
    child.reportUsage({ inputTokens: 5, outputTokens: 1 });
    root.reportUsage({ inputTokens: 1, outputTokens: 1 });
    expect(before?.usage).toEqual({ inputTokens: 20, outputTokens: 2 });
    expect(manager.get('t2')?.usage).toEqual({ inputTokens: 25, outputTokens: 3 });
    expect(manager.get('t1')?.treeUsage).toEqual({ inputTokens: 26, outputTokens: 4 });
    expect(() => {
      (before?.usage as { inputTokens: number }).inputTokens = 0;
    }).toThrow(TypeError);
  });

  it('stops the tree when its budget is exceeded: every task stopped with reason budget, partial output kept', async () => {
    const clock = new ManualClock();
    const manager = new TaskManager({ clock, stopGraceMs: 1_000 });
    const log = new EventLog(manager);
    const { root, child, grandchild } = await tree(manager, { rootBudget: 1_000 });
    grandchild.appendText('grandchild was writing');
    grandchild.reportUsage({ inputTokens: 600, outputTokens: 0 });
    child.reportUsage({ inputTokens: 300, outputTokens: 100 }); // exactly at the budget: still fine
    expect(manager.get('t1')?.status).toBe('running');

    child.reportUsage({ inputTokens: 0, outputTokens: 1 });
    expect(root.signal.aborted && child.signal.aborted && grandchild.signal.aborted).toBe(true);
    const budgetReason = stopReasonOf(root.signal);
    expect(budgetReason).toEqual({ kind: 'budget', detail: 'task t1 and its subtasks used 1001 tokens, over the budget of 1000' });
    expect(stopReasonOf(grandchild.signal)).toEqual(budgetReason);

    await flushMicrotasks(); // the root and the child return their partial output at once
    expect(manager.get('t3')?.status).toBe('stopped');
    await clock.advance(1_000); // the grandchild hangs; the grace ends it
    expect(manager.get('t1')).toMatchObject({ status: 'stopped', output: 'root partial', stopReason: budgetReason });
    expect(describeStopReason(budgetReason)).toBe('budget exceeded: task t1 and its subtasks used 1001 tokens, over the budget of 1000');
    expect(manager.get('t2')).toMatchObject({ status: 'stopped', stopReason: budgetReason, output: 'child partial' });
    expect(manager.get('t3')).toMatchObject({ status: 'stopped', stopReason: budgetReason, output: 'grandchild was writing' });
    log.assertWellFormed();
  });

  it('a budget on an inner task stops only that subtree', async () => {
    const manager = new TaskManager({ clock: new ManualClock() });
    const root = new StagedWork();
    await manager.start(task(root));
    await root.started;
    const child = new StagedWork({ onAbort: 'return' });
    await manager.start(task(child, { parentId: 't1', maxTokens: 50 }));
    (await child.started).reportUsage({ inputTokens: 51, outputTokens: 0 });
    await manager.wait('t2');
    expect(manager.get('t2')).toMatchObject({ status: 'stopped', stopReason: { kind: 'budget' } });
    expect(manager.get('t1')?.status).toBe('running');
  });

  it('usage an aborted request reports after the stop is still counted until the end', async () => {
    const clock = new ManualClock();
    const manager = new TaskManager({ clock });
    const work = new StagedWork();
    await manager.start(task(work));
    const context = await work.started;
    const stopping = manager.stop('t1');
    context.reportUsage({ inputTokens: 7, outputTokens: 3 });
    work.complete('late');
    const final = await stopping;
    expect(final).toMatchObject({ status: 'stopped', usage: { inputTokens: 7, outputTokens: 3 } });
  });
});

describe('notifications', () => {
  it('tells the parent about background children that ended since it last asked', async () => {
    const clock = new ManualClock();
    const manager = new TaskManager({ clock, noticeOutputChars: 10, autoBackgroundMs: 100 });
    const parent = new StagedWork();
    await manager.start(task(parent));
    await parent.started;
    const finished = new StagedWork();
    const failing = new StagedWork();
    const foreground = new StagedWork();
    const auto = new StagedWork();
    await manager.start(task(finished, { parentId: 't1', description: 'Read the docs' }));
    await manager.start(task(failing, { parentId: 't1' }));
    const foregroundDone = manager.start(task(foreground, { parentId: 't1', mode: 'foreground' }));
    void manager.start(task(auto, { parentId: 't1', mode: 'auto' }));
    await Promise.all([finished.started, failing.started, foreground.started, auto.started]);
    expect(manager.takeNotifications('t1')).toEqual([]);

    finished.complete('a long answer that will be cut');
    failing.throw(new Error('no network'));
    foreground.complete('the caller already has this');
    await foregroundDone;
    await clock.advance(100);
    auto.complete('auto result');
    await manager.wait('t5');

    const notices = manager.takeNotifications('t1');
    expect(notices).toEqual([
      { taskId: 't2', role: 'researcher', description: 'Read the docs', status: 'completed', output: 'a long ans…', outputTruncated: true },
      {
        taskId: 't3',
        role: 'researcher',
        description: 'Survey the code',
        status: 'failed',
        output: '',
        outputTruncated: false,
        error: 'no network',
      },
      {
        taskId: 't5',
        role: 'researcher',
        description: 'Survey the code',
        status: 'completed',
        output: 'auto resul…',
        outputTruncated: true,
      },
    ]);
    expect(formatNotice(notices[0])).toBe(
      'Task t2 (researcher: "Read the docs") completed.\na long ans… (cut short; TaskOutput t2 gives the full text)',
    );
    expect(formatNotice(notices[1])).toBe('Task t3 (researcher: "Survey the code") failed: no network.');
    expect(manager.takeNotifications('t1')).toEqual([]); // taken once
  });
});

describe('cost in money', () => {
  const priceOf = (model: string | undefined) => (model === 'test/priced' ? { input: 1, output: 10, cachedInput: 0.1 } : undefined);

  it('prices each task at its own model and sums the tree; tokens of a model with no price are counted apart', async () => {
    const manager = new TaskManager({ clock: new ManualClock(), priceOf });
    const { root, child, grandchild } = await tree(manager);
    root.setModel('test/priced');
    child.setModel('test/unpriced');
    root.reportUsage({ inputTokens: 1_000_000, outputTokens: 100_000, cachedInputTokens: 500_000 });
    child.reportUsage({ inputTokens: 2_000, outputTokens: 500 });
    grandchild.reportUsage({ inputTokens: 10, outputTokens: 5 }); // no model named yet: no price
    // $0.50 + $0.05 + $1.00
    expect(manager.get('t1')?.cost).toEqual({ usd: expect.closeTo(1.55, 10), unpricedTokens: 0 });
    expect(manager.get('t2')?.cost).toEqual({ usd: 0, unpricedTokens: 2_500 });
    expect(manager.get('t1')?.treeCost).toEqual({ usd: expect.closeTo(1.55, 10), unpricedTokens: 2_515 });
    expect(manager.get('t1')?.treeUsage).toEqual({ inputTokens: 1_002_010, outputTokens: 100_505, cachedInputTokens: 500_000 });
  });

  it('stops the tree that spends more than its money budget, counting only priced tokens', async () => {
    const manager = new TaskManager({ clock: new ManualClock(), priceOf, stopGraceMs: 1_000 });
    const root = new StagedWork({ onAbort: 'return', abortOutput: 'partial' });
    const child = new StagedWork({ onAbort: 'return', abortOutput: 'partial' });
    await manager.start(task(root, { maxUsd: 1 }));
    await manager.start(task(child, { parentId: 't1' }));
    const [rootContext, childContext] = [await root.started, await child.started];
    childContext.setModel('test/unpriced');
    childContext.reportUsage({ inputTokens: 50_000_000, outputTokens: 0 }); // no price: nothing against the budget
    expect(manager.get('t1')?.status).toBe('running');
    rootContext.setModel('test/priced');
    rootContext.reportUsage({ inputTokens: 900_000, outputTokens: 0 });
    expect(manager.get('t1')?.status).toBe('running');
    rootContext.reportUsage({ inputTokens: 200_000, outputTokens: 0 });
    const ended = await manager.wait('t1');
    expect(ended).toMatchObject({
      status: 'stopped',
      budgetUsd: 1,
      stopReason: { kind: 'budget', detail: 'task t1 and its subtasks cost $1.1000, over the budget of $1' },
    });
    expect(manager.get('t2')?.stopReason).toEqual(ended.stopReason);
  });
});
