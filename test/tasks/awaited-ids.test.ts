/**
 * `awaitedIds`: the ids of the tasks `awaitedBy` returns, without their snapshots (an agent asks after
 * every run whether background tasks of its own are still going: background-results.ts). Through an
 * ended subtask, as `awaitedBy`: its running children's notices pass it by and come to its parent.
 */
import { describe, expect, it } from 'vitest';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { ManualClock, flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import type { StartTaskOptions } from '../../src/engine/tasks/work.js';
import { StagedWork } from './support/staged-work.js';

function task(work: StagedWork, parentId?: string): StartTaskOptions {
  return { role: 'researcher', description: 'Survey', prompt: 'Survey', mode: 'background', work: work.work, parentId };
}

describe('awaitedIds', () => {
  it('names the unended tasks a task hears of, as awaitedBy does, and none for a task that started none', async () => {
    const manager = new TaskManager({ clock: new ManualClock(), maxConcurrent: 8 });
    const [root, child, grandchild, sibling] = [1, 2, 3, 4].map(() => new StagedWork({ onAbort: 'return' }));
    await manager.start(task(root));
    await manager.start(task(child, 't1'));
    await manager.start(task(grandchild, 't2'));
    await manager.start(task(sibling, 't1'));
    await Promise.all([root.started, child.started, grandchild.started, sibling.started]);
    expect(manager.awaitedIds('t1')).toEqual(['t2', 't4']);
    expect(manager.awaitedIds('t3')).toEqual([]);
    // The child ends while its own child runs: the root now hears of the grandchild too.
    child.complete('done');
    await flushMicrotasks();
    expect(manager.awaitedIds('t1')).toEqual(manager.awaitedBy('t1').map((snapshot) => snapshot.id));
    expect(manager.awaitedIds('t1')).toEqual(['t3', 't4']);
    expect(manager.awaitedIds('unknown')).toEqual([]);
    await manager.close();
  });
});
