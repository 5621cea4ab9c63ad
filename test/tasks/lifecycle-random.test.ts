/**
 * 10,000 seeded random interleavings of start / stop / complete / fail / throw / background /
 * auto-background / waits / slot grants, with the manager's invariants checked after every step: no slot
 * lost or held twice, never more than the limit at work, no task ended twice, stopped is final, and in the
 * end every task ends and every run's caller hears of it. A failing seed is printed and replays alone.
 */
import { describe, expect, it } from 'vitest';
import { createDeferred } from '../../src/engine/util/deferred.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { type TaskEvent, isTerminal } from '../../src/engine/tasks/types.js';
import { ManualClock, flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { ScriptedTask } from './support/scripted-task.js';

const scenarios = Number(process.env.LIFECYCLE_SCENARIOS ?? 10_000);
const stepsPerScenario = 24;

describe('task lifecycle under random interleavings', () => {
  it(`keeps its invariants over ${scenarios} seeded scenarios`, async () => {
    const onlySeed = process.env.LIFECYCLE_SEED;
    const seeds = onlySeed ? [Number(onlySeed)] : Array.from({ length: scenarios }, (_, index) => index + 1);
    for (const seed of seeds) {
      try {
        await runScenario(seed);
      } catch (error) {
        throw new Error(`seed ${seed} broke an invariant (replay with LIFECYCLE_SEED=${seed}): ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
  }, 600_000);
});

async function runScenario(seed: number): Promise<void> {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const clock = new ManualClock();
  const maxConcurrent = 1 + Math.floor(random() * 3);
  const manager = new TaskManager({ clock, maxConcurrent, autoBackgroundMs: 50, stopGraceMs: 20, maxTasksPerRun: 12 });
  const checker = new EventChecker();
  manager.onEvent((event) => checker.record(event));

  const works: ScriptedTask[] = [];
  const runs: Array<Promise<unknown>> = [];
  const externalWaits: Array<() => void> = [];
  const newWork = () => {
    const work = new ScriptedTask(manager, random() < 0.7 ? 'return' : 'hang');
    works.push(work);
    return work.work;
  };

  const actions: Array<() => Promise<void> | void> = [
    () => {
      runs.push(
        manager.start({
          role: 'root',
          description: 'A run',
          prompt: 'Go',
          mode: pick(['foreground', 'background'] as const),
          work: newWork(),
        }),
      );
    },
    () => sendToIdle({ type: 'complete' }),
    () => sendToIdle({ type: 'fail' }),
    () => sendToIdle({ type: 'throw' }),
    () => sendToIdle({ type: 'start-child', mode: pick(['foreground', 'background', 'auto'] as const), work: newWork() }),
    () => sendToIdle({ type: 'start-child', mode: 'auto', work: newWork() }),
    () => sendToIdle({ type: 'wait-child', timeoutMs: pick([undefined, 30]) }),
    () => {
      const until = createDeferred<void>();
      externalWaits.push(() => until.resolve());
      sendToIdle({ type: 'wait-external', until: until.promise, forUser: random() < 0.5 });
    },
    () => externalWaits.splice(Math.floor(random() * externalWaits.length), 1)[0]?.(),
    async () => {
      const open = manager.list().filter((task) => !isTerminal(task.status));
      if (open.length > 0) void manager.stop(pick(open).id);
    },
    () => clock.advance(pick([10, 25, 60])),
  ];
  function sendToIdle(command: Parameters<ScriptedTask['send']>[0]): void {
    const idle = works.filter((work) => work.idle);
    if (idle.length > 0) pick(idle).send(command);
  }

  for (let step = 0; step < stepsPerScenario; step++) {
    await pick(actions)();
    await flushMicrotasks(20);
    checkInvariants(manager, maxConcurrent);
  }

  // Let everything end: complete whatever can take a command, release outside waits, let timers fire.
  for (let round = 0; round < 200; round++) {
    for (const release of externalWaits.splice(0)) release();
    for (const work of works) if (work.idle) work.send({ type: 'complete' });
    await clock.advance(60);
    checkInvariants(manager, maxConcurrent);
    if (manager.list().every((task) => isTerminal(task.status))) break;
  }
  await clock.advance(100);
  const unfinished = manager.list().filter((task) => !isTerminal(task.status));
  expect(
    unfinished.map((task) => `${task.id} ${task.status}`),
    'every task ends',
  ).toEqual([]);
  await Promise.all(manager.list().map((task) => manager.wait(task.id)));
  expect(manager.lifecycleReport()).toMatchObject({ slotsInUse: 0, queued: 0 });
  await Promise.all(runs); // every run's caller heard of its end (a hang here times the test out)
  checker.assertAllEndedOnce(manager.list().map((task) => task.id));
}

function checkInvariants(manager: TaskManager, maxConcurrent: number): void {
  const report = manager.lifecycleReport();
  const holders = report.tasks.filter((task) => task.holdsSlot);
  expect(report.slotsInUse, 'slots in use').toBeLessThanOrEqual(maxConcurrent);
  expect(holders.length, 'each held slot belongs to one task').toBe(report.slotsInUse);
  for (const task of report.tasks) {
    expect(task.holdsSlot, `${task.id} holds a slot exactly while running`).toBe(task.phase === 'running');
    if (task.phase === 'waiting') expect(task.openWaits, `${task.id} waits on something`).toBeGreaterThan(0);
    if (task.phase === 'running' || task.phase === 'resuming') expect(task.openWaits, `${task.id} open waits`).toBe(0);
    expect(task.userWaits, `${task.id} waits for the user only within its open waits`).toBeLessThanOrEqual(task.openWaits);
    const status = manager.get(task.id)?.status;
    expect(status === 'waiting', `${task.id} shows waiting exactly while it waits for the user`).toBe(
      task.phase === 'waiting' && task.userWaits > 0,
    );
  }
  const inQueue = report.tasks.filter((task) => task.phase === 'queued' || task.phase === 'resuming').length;
  expect(report.queued, 'queued and resuming tasks are exactly the queue').toBe(inQueue);
  // Work-conserving: a free slot never sits next to a task waiting for one.
  if (report.slotsInUse < maxConcurrent) expect(report.queued, 'nothing queued while a slot is free').toBe(0);
}

/** Checks the event stream: one `task-end` per task, nothing after it, stopped (or any terminal status) final. */
class EventChecker {
  private readonly ends = new Map<string, number>();
  private readonly terminal = new Map<string, string>();

  record(event: TaskEvent): void {
    const id = 'task' in event ? event.task.id : event.taskId;
    if (this.ends.has(id)) throw new Error(`${id} emitted ${event.type} after its task-end`);
    if (!('task' in event)) return;
    const previous = this.terminal.get(id);
    if (previous !== undefined && event.task.status !== previous) throw new Error(`${id} went from ${previous} to ${event.task.status}`);
    if (isTerminal(event.task.status)) this.terminal.set(id, event.task.status);
    if (event.type === 'task-end') {
      if (!isTerminal(event.task.status)) throw new Error(`${id} ended with status ${event.task.status}`);
      this.ends.set(id, (this.ends.get(id) ?? 0) + 1);
    }
  }

  assertAllEndedOnce(ids: string[]): void {
    for (const id of ids) expect(this.ends.get(id), `task-end count of ${id}`).toBe(1);
  }
}

/** A small seeded generator, so a failing scenario replays exactly. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
