import { describe, expect, it } from 'vitest';
import { ManualClock, flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import type { StartTaskOptions, TaskWork } from '../../src/engine/tasks/work.js';
import { EventLog } from './support/event-log.js';
import { StagedWork } from './support/staged-work.js';

function task(work: TaskWork, overrides: Partial<StartTaskOptions> = {}): StartTaskOptions {
  return { role: 'worker', description: 'Do a part', prompt: 'Do it', mode: 'background', work, ...overrides };
}

describe('concurrency', () => {
  it('runs 200 tasks with a limit of 4: never more than 4 at once, FIFO, all finish, ids unique', async () => {
    const manager = new TaskManager({ clock: new ManualClock(), maxConcurrent: 4 });
    const log = new EventLog(manager);
    const running = new Set<string>();
    let maxRunning = 0;
    const startOrder: string[] = [];
    manager.onEvent((event) => {
      if (!('task' in event)) return;
      if (event.task.status === 'running') {
        if (!running.has(event.task.id)) startOrder.push(event.task.id);
        running.add(event.task.id);
      } else running.delete(event.task.id);
      maxRunning = Math.max(maxRunning, running.size);
    });
    let workRunning = 0;
    let maxWorkRunning = 0;
    const works = Array.from({ length: 200 }, () => new StagedWork());
    const wrapped = works.map((staged): TaskWork => async (context) => {
      workRunning++;
      maxWorkRunning = Math.max(maxWorkRunning, workRunning);
      try {
        return await staged.work(context);
      } finally {
        workRunning--;
      }
    });
    const started = await Promise.all(wrapped.map((work) => manager.start(task(work))));
    expect(started.filter((result) => result.task.status === 'running')).toHaveLength(4);

    // Finish them in an awkward order: always the most recently started one still running.
    for (let done = 0; done < 200; done++) {
      await flushMicrotasks();
      const runningNow = manager.list().filter((snapshot) => snapshot.status === 'running');
      expect(runningNow.length).toBe(Math.min(4, 200 - done));
      const pick = runningNow[runningNow.length - 1];
      works[Number(pick.id.slice(1)) - 1].complete(`output of ${pick.id}`);
      await manager.wait(pick.id);
    }

    const all = manager.list();
    expect(all.every((snapshot) => snapshot.status === 'completed')).toBe(true);
    expect(new Set(all.map((snapshot) => snapshot.id)).size).toBe(200);
    expect(maxRunning).toBe(4);
    expect(maxWorkRunning).toBe(4);
    // The queue is FIFO: tasks got their slots in the order they were started.
    expect(startOrder).toEqual(all.map((snapshot) => snapshot.id));
    log.assertWellFormed();
  });

  it('a foreground child of a running parent runs in the parent slot: no deadlock at a limit of 1', async () => {
    const manager = new TaskManager({ clock: new ManualClock(), maxConcurrent: 1 });
    const log = new EventLog(manager);
    const grandchild = new StagedWork();
    const parentWork: TaskWork = async (context) => {
      const child = await manager.start({
        ...task(async (childContext) => {
          const nested = await manager.start({ ...task(grandchild.work), mode: 'foreground', parentId: childContext.taskId });
          return { status: 'completed', output: `child got: ${nested.task.output}` };
        }),
        mode: 'foreground',
        parentId: context.taskId,
      });
      return { status: 'completed', output: `parent got: ${child.task.output}` };
    };
    const waiting = new StagedWork();
    const parentStarted = manager.start(task(parentWork, { mode: 'foreground' }));
    // Another root task asks for a slot meanwhile: it must wait behind the whole nested chain.
    await manager.start(task(waiting.work));
    await grandchild.started;
    expect(manager.list().map((snapshot) => snapshot.status)).toEqual(['running', 'queued', 'running', 'running']);

    grandchild.complete('leaf result');
    const parent = await parentStarted;
    expect(parent.task).toMatchObject({ status: 'completed', output: 'parent got: child got: leaf result' });
    await waiting.started;
    expect(manager.get('t2')?.status).toBe('running');
    log.assertWellFormed();
  });

  it('background and auto children take their own slot (they queue at the limit)', async () => {
    const manager = new TaskManager({ clock: new ManualClock(), maxConcurrent: 1 });
    const parent = new StagedWork();
    await manager.start(task(parent.work));
    const context = await parent.started;
    const background = await manager.start(task(new StagedWork().work, { parentId: context.taskId }));
    expect(background.task.status).toBe('queued');
    void manager.start(task(new StagedWork().work, { parentId: context.taskId, mode: 'auto' }));
    await flushMicrotasks();
    expect(manager.get('t3')?.status).toBe('queued');
    parent.complete('done');
    await manager.wait('t1');
    expect(manager.get('t2')?.status).toBe('running');
    expect(manager.get('t3')?.status).toBe('queued');
  });

  it('a foreground child keeps the slot it shares when its parent ends first', async () => {
    const manager = new TaskManager({ clock: new ManualClock(), maxConcurrent: 1 });
    const parent = new StagedWork();
    const child = new StagedWork();
    const other = new StagedWork();
    await manager.start(task(parent.work));
    await parent.started;
    void manager.start(task(child.work, { parentId: 't1', mode: 'foreground' }));
    await child.started;
    await manager.start(task(other.work));
    parent.complete('parent returned without waiting');
    await manager.wait('t1');
    await flushMicrotasks();
    expect(manager.get('t3')?.status).toBe('queued'); // the child still holds the slot
    child.complete('child done');
    await other.started;
    expect(manager.get('t3')?.status).toBe('running');
  });

  it('stopping a parent frees the slot it shared with its foreground child only once', async () => {
    const manager = new TaskManager({ clock: new ManualClock(), maxConcurrent: 1, stopGraceMs: 10 });
    const parent = new StagedWork({ onAbort: 'return' });
    const child = new StagedWork({ onAbort: 'return' });
    const second = new StagedWork();
    const third = new StagedWork();
    await manager.start(task(parent.work));
    await parent.started;
    void manager.start(task(child.work, { parentId: 't1', mode: 'foreground' }));
    await child.started;
    await manager.start(task(second.work));
    await manager.start(task(third.work));
    await manager.stop('t1');
    await second.started;
    await flushMicrotasks();
    // One slot freed: exactly one queued task may start.
    expect(manager.get('t3')?.status).toBe('running');
    expect(manager.get('t4')?.status).toBe('queued');
  });
});
