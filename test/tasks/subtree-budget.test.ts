/** A budget a task's work brings when it starts (a role file's `maxTokens`): it stops that subtree only. */
import { describe, expect, it } from 'vitest';
import { stopReasonOf } from '../../src/engine/errors.js';
import { ManualClock, flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import type { StartTaskOptions } from '../../src/engine/tasks/work.js';
import { EventLog } from './support/event-log.js';
import { StagedWork } from './support/staged-work.js';

function task(work: StagedWork, overrides: Partial<StartTaskOptions> = {}): StartTaskOptions {
  return { role: 'researcher', description: 'Survey the code', prompt: 'Survey', mode: 'background', work: work.work, ...overrides };
}

async function tree(manager: TaskManager, rootBudget?: number) {
  const works = {
    root: new StagedWork({ onAbort: 'return' }),
    child: new StagedWork({ onAbort: 'return' }),
    grandchild: new StagedWork({ onAbort: 'return' }),
  };
  await manager.start(task(works.root, { maxTokens: rootBudget }));
  await manager.start(task(works.child, { parentId: 't1' }));
  await manager.start(task(works.grandchild, { parentId: 't2' }));
  return { root: await works.root.started, child: await works.child.started, grandchild: await works.grandchild.started };
}

describe('a subtree budget set by the work (limitTreeTokens)', () => {
  it('counts the task and its descendants, and stops only that subtree with reason budget; the parent goes on', async () => {
    const manager = new TaskManager({ clock: new ManualClock() });
    const log = new EventLog(manager);
    const { root, child, grandchild } = await tree(manager);
    child.limitTreeTokens?.(100);
    expect(manager.get('t2')?.budgetTokens).toBe(100);
    child.reportUsage({ inputTokens: 40, outputTokens: 10 });
    grandchild.reportUsage({ inputTokens: 40, outputTokens: 10 }); // exactly at the budget: still fine
    root.reportUsage({ inputTokens: 500, outputTokens: 0 }); // the parent's own spend is not the subtree's
    expect(child.signal.aborted).toBe(false);
    grandchild.reportUsage({ inputTokens: 1, outputTokens: 0 });
    const reason = { kind: 'budget', detail: 'task t2 and its subtasks used 101 tokens, over the budget of 100' };
    expect(stopReasonOf(child.signal)).toEqual(reason);
    expect(stopReasonOf(grandchild.signal)).toEqual(reason);
    expect(root.signal.aborted).toBe(false);
    await flushMicrotasks();
    expect(manager.get('t2')).toMatchObject({ status: 'stopped', stopReason: reason });
    expect(manager.get('t3')).toMatchObject({ status: 'stopped', stopReason: reason });
    expect(manager.get('t1')?.status).toBe('running');
    log.assertWellFormed();
  });

  it('only tightens: a looser limit than the run budget changes nothing, and the outermost tree over its budget is the one stopped', async () => {
    const manager = new TaskManager({ clock: new ManualClock() });
    const { root, child } = await tree(manager, 50);
    root.limitTreeTokens?.(500);
    expect(manager.get('t1')?.budgetTokens).toBe(50);
    child.limitTreeTokens?.(40);
    child.reportUsage({ inputTokens: 60, outputTokens: 0 }); // past both: the run's tree stops, not just the child's
    expect(stopReasonOf(root.signal)).toEqual({ kind: 'budget', detail: 'task t1 and its subtasks used 60 tokens, over the budget of 50' });
  });

  it('stops the subtree at once when what it has spent is already past the new limit', async () => {
    const manager = new TaskManager({ clock: new ManualClock() });
    const { root, child, grandchild } = await tree(manager);
    grandchild.reportUsage({ inputTokens: 30, outputTokens: 0 });
    child.limitTreeTokens?.(20);
    expect(stopReasonOf(child.signal)).toEqual({
      kind: 'budget',
      detail: 'task t2 and its subtasks used 30 tokens, over the budget of 20',
    });
    expect(root.signal.aborted).toBe(false);
    // Nonsense limits are ignored, as bad usage numbers are.
    root.limitTreeTokens?.(Number.NaN);
    root.limitTreeTokens?.(-1);
    expect(manager.get('t1')?.budgetTokens).toBeUndefined();
  });
});
