import { describe, expect, it } from 'vitest';
import { ManualClock, flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { createDeferred } from '../../src/engine/util/deferred.js';
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

  it('a task waiting on a foreground child gives its slot back: a nested chain completes at a limit of 1', async () => {
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
    // Another run asks for a slot meanwhile: work already under way goes first.
    await manager.start(task(waiting.work));
    await grandchild.started;
    expect(manager.list().map((snapshot) => snapshot.status)).toEqual(['running', 'queued', 'running', 'running']);
    expect(slotHolders(manager)).toEqual(['t4']);
    expect(phases(manager)).toEqual({ t1: 'waiting', t2: 'queued', t3: 'waiting', t4: 'running' });

    grandchild.complete('leaf result');
    const parent = await parentStarted;
    expect(parent.task).toMatchObject({ status: 'completed', output: 'parent got: child got: leaf result' });
    await waiting.started;
    expect(manager.get('t2')?.status).toBe('running');
    log.assertWellFormed();
  });

  it('an auto child (what the Agent tool starts) runs while its parent waits, even at a limit of 1', async () => {
    const manager = new TaskManager({ clock: new ManualClock(), maxConcurrent: 1 });
    const child = new StagedWork();
    const parent: TaskWork = async (context) => {
      const result = await manager.start(task(child.work, { parentId: context.taskId, mode: 'auto' }));
      return { status: 'completed', output: `parent got: ${result.task.output}` };
    };
    const done = manager.start(task(parent, { mode: 'foreground' }));
    await child.started;
    expect(slotHolders(manager)).toEqual(['t2']);
    child.complete('child result');
    expect((await done).task).toMatchObject({ status: 'completed', output: 'parent got: child result' });
    expect(manager.lifecycleReport().slotsInUse).toBe(0);
  });

  it('three parents each waiting on a child that waits on a grandchild complete at limits 1 and 4', async () => {
    for (const limit of [1, 4]) {
      const manager = new TaskManager({ clock: new ManualClock(), maxConcurrent: limit });
      const log = new EventLog(manager);
      const leaf: TaskWork = async () => ({ status: 'completed', output: 'leaf' });
      const middle: TaskWork = async (context) => {
        const result = await manager.start(task(leaf, { parentId: context.taskId, mode: 'auto' }));
        return { status: 'completed', output: `middle(${result.task.output})` };
      };
      const top: TaskWork = async (context) => {
        const results = await Promise.all([1, 2, 3].map(() => manager.start(task(middle, { parentId: context.taskId, mode: 'auto' }))));
        return { status: 'completed', output: results.map((result) => result.task.output).join(' ') };
      };
      const result = await manager.start(task(top, { mode: 'foreground' }));
      expect(result.task).toMatchObject({ status: 'completed', output: 'middle(leaf) middle(leaf) middle(leaf)' });
      expect(manager.lifecycleReport()).toMatchObject({ slotsInUse: 0, queued: 0 });
      log.assertWellFormed();
    }
  });

  it('a parent waiting on its background children holds no slot: all four run at once at a limit of 4', async () => {
    const manager = new TaskManager({ clock: new ManualClock(), maxConcurrent: 4 });
    const children = Array.from({ length: 4 }, () => new StagedWork());
    const parent: TaskWork = async (context) => {
      const started = await Promise.all(children.map((child) => manager.start(task(child.work, { parentId: context.taskId }))));
      const ended = await Promise.all(started.map((result) => manager.wait(result.task.id, { waiterId: context.taskId })));
      return { status: 'completed', output: ended.map((snapshot) => snapshot.output).join(',') };
    };
    const done = manager.start(task(parent, { mode: 'foreground' }));
    await Promise.all(children.map((child) => child.started));
    expect(slotHolders(manager)).toEqual(['t2', 't3', 't4', 't5']);
    children.forEach((child, index) => child.complete(`c${index}`));
    expect((await done).task.output).toBe('c0,c1,c2,c3');
  });

  it('a task resuming after its wait gets the next slot before new runs and new subtasks', async () => {
    const manager = new TaskManager({ clock: new ManualClock(), maxConcurrent: 1 });
    const child = new StagedWork();
    const afterWait = new StagedWork();
    const parent: TaskWork = async (context) => {
      await manager.start(task(child.work, { parentId: context.taskId, mode: 'foreground' }));
      return afterWait.work(context);
    };
    void manager.start(task(parent, { mode: 'foreground' }));
    await child.started;
    await manager.start(task(new StagedWork().work)); // a new run, queued
    await manager.start(task(new StagedWork().work, { parentId: 't1' })); // a new subtask of the parent, queued
    child.complete('done');
    await afterWait.started;
    expect(slotHolders(manager)).toEqual(['t1']);
    expect(phases(manager)).toMatchObject({ t3: 'queued', t4: 'queued' });
  });

  it('a stopped waiting parent takes no slot back, and its queued subtasks leave the queue', async () => {
    const manager = new TaskManager({ clock: new ManualClock(), maxConcurrent: 1, stopGraceMs: 10 });
    const child = new StagedWork({ onAbort: 'return' });
    const other = new StagedWork();
    const parent: TaskWork = async (context) => {
      const result = await manager.start(task(child.work, { parentId: context.taskId, mode: 'foreground' }));
      return { status: 'completed', output: String(result.task.output) };
    };
    void manager.start(task(parent, { mode: 'foreground' }));
    await child.started;
    await manager.start(task(other.work));
    await manager.stop('t1');
    await other.started;
    expect(manager.lifecycleReport()).toMatchObject({ slotsInUse: 1, queued: 0 });
    expect(slotHolders(manager)).toEqual(['t3']);
  });
});

function slotHolders(manager: TaskManager): string[] {
  return manager
    .lifecycleReport()
    .tasks.filter((entry) => entry.holdsSlot)
    .map((entry) => entry.id);
}

function phases(manager: TaskManager): Record<string, string> {
  return Object.fromEntries(manager.lifecycleReport().tasks.map((entry) => [entry.id, entry.phase]));
}

describe('the most tasks one run may start', () => {
  it('refuses a subtask past maxTasksPerRun with a clear error, counting the whole tree, and other runs are not affected', async () => {
    const manager = new TaskManager({ clock: new ManualClock(), maxTasksPerRun: 3 });
    const root = new StagedWork();
    await manager.start(task(root.work));
    await root.started;
    const child = await manager.start(task(new StagedWork().work, { parentId: 't1' }));
    const grandchildWork = new StagedWork();
    await manager.start(task(grandchildWork.work, { parentId: child.task.id }));
    await expect(manager.start(task(new StagedWork().work, { parentId: 't1' }))).rejects.toMatchObject({
      kind: 'limit',
      message: expect.stringContaining('This run has already started 3 tasks'),
    });
    // Another run has a count of its own.
    const other = new StagedWork();
    const otherRoot = await manager.start(task(other.work));
    await other.started;
    await expect(manager.start(task(new StagedWork().work, { parentId: otherRoot.task.id }))).resolves.toMatchObject({
      backgrounded: true,
    });
  });
});

describe('waiting for the user', () => {
  it('shows waiting, frees the slot, and pauses the auto-background clock until the answer comes', async () => {
    const clock = new ManualClock();
    const manager = new TaskManager({ clock, maxConcurrent: 1 });
    const log = new EventLog(manager);
    const answer = createDeferred<string>();
    const other = new StagedWork();
    let heard = '';
    const asking: TaskWork = async (context) => {
      await clock.advance(0);
      heard = await context.waitForUser(answer.promise);
      return { status: 'completed', output: `answer: ${heard}` };
    };
    const parent = new StagedWork();
    await manager.start(task(parent.work));
    const parentContext = await parent.started;
    // An auto child (as the Agent tool starts it) that asks the user; its caller waits up to 100 ms.
    const started = manager.start(task(asking, { parentId: parentContext.taskId, mode: 'auto', autoBackgroundMs: 100 }));
    await flushMicrotasks(30);
    expect(manager.get('t2')?.status).toBe('waiting');
    expect(log.statuses('t2')).toEqual(['queued', 'running', 'waiting']);
    // Its slot is free: another task runs meanwhile.
    await manager.start(task(other.work));
    await other.started;
    // Waiting for the user does not count toward auto-background.
    await clock.advance(500);
    expect(manager.get('t2')).toMatchObject({ status: 'waiting', background: false });
    other.complete('other done');
    answer.resolve('yes');
    expect(await started).toMatchObject({ backgrounded: false, task: { status: 'completed', output: 'answer: yes' } });
    expect(log.statuses('t2')).toEqual(['queued', 'running', 'waiting', 'running', 'completed']);
  });

  it('a waiting task can still be stopped', async () => {
    const manager = new TaskManager({ clock: new ManualClock() });
    const never = createDeferred<string>();
    void manager.start(task(async (context) => ({ status: 'completed', output: await context.waitForUser(never.promise) })));
    await flushMicrotasks(20);
    expect(manager.get('t1')?.status).toBe('waiting');
    expect((await manager.stop('t1')).status).toBe('stopped');
  });
});
