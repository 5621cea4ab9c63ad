import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { JsonFileTaskStore, type TaskStoreFileSystem, nodeTaskStoreFileSystem } from '../../src/engine/tasks/json-file-task-store.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { InMemoryTaskStore, type PersistedHistory } from '../../src/engine/tasks/task-store.js';
import type { StartTaskOptions } from '../../src/engine/tasks/work.js';
import { StagedWork } from './support/staged-work.js';

function task(work: StagedWork, overrides: Partial<StartTaskOptions> = {}): StartTaskOptions {
  return { role: 'reviewer', description: 'Review the change', prompt: 'Review it', mode: 'background', work: work.work, ...overrides };
}

let directory: string;
let filePath: string;

beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-team-tasks-'));
  filePath = path.join(directory, 'state', 'tasks.json');
});

afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

/** A history with one completed task, written by a real manager. */
async function writeOneCompletedTask(store: JsonFileTaskStore): Promise<void> {
  const manager = new TaskManager({ clock: new ManualClock(), store });
  const work = new StagedWork();
  await manager.start(task(work));
  (await work.started).appendTranscript({ type: 'text', text: 'looks good' });
  work.complete('approved');
  await manager.wait('t1');
  await manager.close();
}

describe('JsonFileTaskStore', () => {
  it('round-trips snapshots and transcripts through a real file', async () => {
    const store = new JsonFileTaskStore(filePath);
    const manager = new TaskManager({ clock: new ManualClock(), store, maxTranscriptEntries: 2 });
    const parent = new StagedWork();
    await manager.start(task(parent, { maxTokens: 10_000 }));
    const context = await parent.started;
    context.reportUsage({ inputTokens: 40, outputTokens: 2 });
    for (const text of ['one', 'two', 'three']) context.appendTranscript({ type: 'text', text });
    const child = new StagedWork();
    await manager.start(task(child, { parentId: 't1' }));
    await child.started;
    child.fail('could not finish', 'half');
    parent.complete('done');
    await manager.wait('t1');
    await manager.close();

    const reloaded = new TaskManager({ clock: new ManualClock(), store: new JsonFileTaskStore(filePath) });
    await reloaded.load();
    expect(reloaded.list()).toEqual(manager.list());
    expect(reloaded.transcript('t1')).toEqual(manager.transcript('t1'));
    expect(reloaded.transcript('t1')[0]).toMatchObject({ type: 'notice', text: expect.stringContaining('1 earlier') });
    expect(reloaded.children('t1').map((snapshot) => snapshot.id)).toEqual(['t2']);
    // New tasks never reuse a loaded id.
    const next = await reloaded.start(task(new StagedWork()));
    expect(next.task.id).toBe('t3');
    await reloaded.flush();
  });

  it('loads tasks that were queued or running at a crash as interrupted (reason interrupted)', async () => {
    const store = new JsonFileTaskStore(filePath);
    const manager = new TaskManager({ clock: new ManualClock(), store, maxConcurrent: 1 });
    const running = new StagedWork();
    await manager.start(task(running));
    (await running.started).appendText('was halfway through');
    await manager.start(task(new StagedWork()));
    await manager.flush();
    // The process dies here: no close(), no task-end.

    const clock = new ManualClock(1_800_000_000_000);
    const reloaded = new TaskManager({ clock, store: new JsonFileTaskStore(filePath) });
    await reloaded.load();
    expect(reloaded.get('t1')).toMatchObject({
      status: 'interrupted',
      stopReason: { kind: 'interrupted' },
      output: 'was halfway through',
      endedAt: clock.now(),
    });
    expect(reloaded.get('t2')).toMatchObject({ status: 'interrupted', stopReason: { kind: 'interrupted' } });
    expect(reloaded.get('t2')?.output).toBeUndefined();
    await reloaded.stopAll({ kind: 'user' }); // nothing to stop: loaded tasks are history
    expect(reloaded.get('t1')?.stopReason).toEqual({ kind: 'interrupted' });
    // Loading found interrupted tasks, so it saved them as interrupted: a second load agrees.
    await reloaded.flush();
    const again = await new JsonFileTaskStore(filePath).load();
    expect(again.tasks.map((persisted) => [persisted.task.status, persisted.task.stopReason])).toEqual([
      ['interrupted', { kind: 'interrupted' }],
      ['interrupted', { kind: 'interrupted' }],
    ]);
    const third = new TaskManager({ clock: new ManualClock(), store: new JsonFileTaskStore(filePath) });
    await third.load();
    expect(third.list().map((snapshot) => [snapshot.status, snapshot.stopReason, snapshot.endedAt])).toEqual([
      ['interrupted', { kind: 'interrupted' }, clock.now()],
      ['interrupted', { kind: 'interrupted' }, clock.now()],
    ]);
  });

  it('reads history written before the interrupted status (stopped by shutdown or interruption) as interrupted', async () => {
    const store = new JsonFileTaskStore(filePath);
    const manager = new TaskManager({ clock: new ManualClock(), store });
    for (const reason of ['shutdown', 'interrupted', 'user'] as const) {
      const work = new StagedWork({ onAbort: 'return' });
      const started = await manager.start(task(work));
      await work.started;
      await manager.stop(started.task.id, { kind: reason });
    }
    await manager.close();
    // Rewrite the file as an older version saved it: an interruption was a plain `stopped`.
    const written = JSON.parse(await fs.readFile(filePath, 'utf8')) as PersistedHistory;
    expect(written.tasks.map((persisted) => persisted.task.status)).toEqual(['interrupted', 'interrupted', 'stopped']);
    for (const persisted of written.tasks) (persisted.task as { status: string }).status = 'stopped';
    await fs.writeFile(filePath, JSON.stringify(written));

    const reloaded = new TaskManager({ clock: new ManualClock(), store: new JsonFileTaskStore(filePath) });
    await reloaded.load();
    expect(reloaded.list().map((snapshot) => [snapshot.status, snapshot.stopReason?.kind])).toEqual([
      ['interrupted', 'shutdown'],
      ['interrupted', 'interrupted'],
      ['stopped', 'user'],
    ]);
  });

  it('loads a stored interrupted task without a stop reason with reason interrupted', async () => {
    await writeOneCompletedTask(new JsonFileTaskStore(filePath));
    const written = JSON.parse(await fs.readFile(filePath, 'utf8')) as PersistedHistory;
    Object.assign(written.tasks[0]!.task, { status: 'interrupted' });
    await fs.writeFile(filePath, JSON.stringify(written));
    const reloaded = new TaskManager({ clock: new ManualClock(), store: new JsonFileTaskStore(filePath) });
    await reloaded.load();
    expect(reloaded.get('t1')).toMatchObject({ status: 'interrupted', stopReason: { kind: 'interrupted' } });
  });

  it('loads a torn (partial JSON) file as an empty history with a warning, moving it aside', async () => {
    await fs.mkdir(path.dirname(filePath), { recursive: true });
    await fs.writeFile(filePath, '{"version":1,"tasks":[{"task":{"id":"t1","par');
    const warnings: string[] = [];
    const store = new JsonFileTaskStore(filePath, { onWarning: (message) => warnings.push(message) });
    await expect(store.load()).resolves.toEqual({ version: 1, tasks: [] });
    expect(warnings).toEqual([expect.stringContaining('is damaged')]);
    await expect(fs.readFile(`${filePath}.corrupt`, 'utf8')).resolves.toContain('"par');
  });

  it('never overwrites an earlier damaged copy: a second damaged file goes to .corrupt-2', async () => {
    await fs.mkdir(path.dirname(filePath), { recursive: true });
    await fs.writeFile(filePath, '{"first damaged');
    await new JsonFileTaskStore(filePath, { onWarning: () => {} }).load();
    await fs.writeFile(filePath, '{"second damaged');
    const warnings: string[] = [];
    await new JsonFileTaskStore(filePath, { onWarning: (message) => warnings.push(message) }).load();
    await expect(fs.readFile(`${filePath}.corrupt`, 'utf8')).resolves.toBe('{"first damaged');
    await expect(fs.readFile(`${filePath}.corrupt-2`, 'utf8')).resolves.toBe('{"second damaged');
    expect(warnings).toEqual([expect.stringContaining(`kept as ${filePath}.corrupt-2`)]);
  });

  it('skips single damaged task records and keeps the rest', async () => {
    await writeOneCompletedTask(new JsonFileTaskStore(filePath));
    const history = JSON.parse(await fs.readFile(filePath, 'utf8')) as PersistedHistory;
    history.tasks.push({ task: { id: 42 } } as never);
    await fs.writeFile(filePath, JSON.stringify(history));
    const warnings: string[] = [];
    const loaded = await new JsonFileTaskStore(filePath, { onWarning: (message) => warnings.push(message) }).load();
    expect(loaded.tasks.map((persisted) => persisted.task.id)).toEqual(['t1']);
    // The file with the damaged record is kept beside it: the next save would drop that record for good.
    expect(warnings).toEqual([expect.stringContaining('1 damaged task record'), expect.stringContaining(`kept as ${filePath}.corrupt`)]);
    expect(await fs.readFile(`${filePath}.corrupt`, 'utf8')).toContain('"id":42');
  });

  it('a crash midway through a write leaves the previous file intact and loadable', async () => {
    await writeOneCompletedTask(new JsonFileTaskStore(filePath));
    const before = await fs.readFile(filePath, 'utf8');

    // The "crash": half the bytes reach the temp file, then the write dies and the process with it (the
    // cleanup that would have removed the temp file never runs).
    const crashing: TaskStoreFileSystem = {
      ...nodeTaskStoreFileSystem,
      openForWriting: async (target) => {
        const real = await nodeTaskStoreFileSystem.openForWriting(target);
        return {
          ...real,
          write: async (text) => {
            await real.write(text.slice(0, Math.floor(text.length / 2)));
            await real.close();
            throw new Error('EIO: the disk went away');
          },
        };
      },
      unlink: async () => {
        throw new Error('process already dead');
      },
    };
    const store = new JsonFileTaskStore(filePath, { fileSystem: crashing });
    await expect(store.save({ version: 1, tasks: [] })).rejects.toMatchObject({ kind: 'store', message: expect.stringContaining('EIO') });

    const leftovers = (await fs.readdir(path.dirname(filePath))).filter((name) => name.endsWith('.tmp'));
    expect(leftovers).toHaveLength(1); // the stray temp file the crash left behind
    expect(await fs.readFile(filePath, 'utf8')).toBe(before);
    const loaded = await new JsonFileTaskStore(filePath).load();
    expect(loaded.tasks.map((persisted) => [persisted.task.id, persisted.task.status, persisted.task.output])).toEqual([
      ['t1', 'completed', 'approved'],
    ]);
  });

  it('a failed rename leaves the old file and cleans up its temp file', async () => {
    await writeOneCompletedTask(new JsonFileTaskStore(filePath));
    const before = await fs.readFile(filePath, 'utf8');
    const store = new JsonFileTaskStore(filePath, {
      fileSystem: { ...nodeTaskStoreFileSystem, rename: async () => Promise.reject(new Error('EXDEV')) },
    });
    await expect(store.save({ version: 1, tasks: [] })).rejects.toThrow(/EXDEV/);
    expect(await fs.readFile(filePath, 'utf8')).toBe(before);
    expect((await fs.readdir(path.dirname(filePath))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('coalesces saves: one write in flight, then one more with the latest state', async () => {
    let releaseFirstWrite!: () => void;
    const firstWriteHeld = new Promise<void>((resolve) => (releaseFirstWrite = resolve));
    let inFlight = 0;
    let maxInFlight = 0;
    let writesStarted = 0;
    let firstWriteStarted!: () => void;
    const firstWriteBegan = new Promise<void>((resolve) => (firstWriteStarted = resolve));
    const gated: TaskStoreFileSystem = {
      ...nodeTaskStoreFileSystem,
      openForWriting: async (target) => {
        const real = await nodeTaskStoreFileSystem.openForWriting(target);
        return {
          ...real,
          write: async (text) => {
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
            if (++writesStarted === 1) {
              firstWriteStarted();
              await firstWriteHeld;
            }
            await real.write(text);
            inFlight--;
          },
        };
      },
    };
    const store = new JsonFileTaskStore(filePath, { fileSystem: gated });
    const history = (marker: string): PersistedHistory => ({ version: 1, tasks: [], marker }) as PersistedHistory;
    const saves = [
      store.save(history('first')),
      store.save(history('second')),
      store.save(history('third')),
      store.save(history('latest')),
    ];
    await firstWriteBegan;
    expect(writesStarted).toBe(1);
    releaseFirstWrite();
    await Promise.all(saves);
    expect(store.writes).toBe(2);
    expect(maxInFlight).toBe(1);
    expect(JSON.parse(await fs.readFile(filePath, 'utf8'))).toMatchObject({ marker: 'latest' });
  });

  it('ignores stray temp files when loading', async () => {
    await writeOneCompletedTask(new JsonFileTaskStore(filePath));
    await fs.writeFile(path.join(path.dirname(filePath), '.tasks.json.deadbeef.tmp'), '{"version":1,"tasks":[');
    const loaded = await new JsonFileTaskStore(filePath).load();
    expect(loaded.tasks).toHaveLength(1);
  });

  it('a missing file is an empty history, silently', async () => {
    const warnings: string[] = [];
    const store = new JsonFileTaskStore(filePath, { onWarning: (message) => warnings.push(message) });
    await expect(store.load()).resolves.toEqual({ version: 1, tasks: [] });
    expect(warnings).toEqual([]);
  });
});

describe('history in the manager', () => {
  it('saves on start and end, not on every delta', async () => {
    const store = new InMemoryTaskStore();
    const manager = new TaskManager({ clock: new ManualClock(), store });
    const work = new StagedWork();
    await manager.start(task(work));
    const context = await work.started;
    await manager.flush();
    const afterStart = store.saves;
    expect(store.saved.tasks.map((persisted) => persisted.task.status)).toEqual(['running']);
    for (let index = 0; index < 50; index++) {
      context.appendText(`delta ${index} `);
      context.reportUsage({ inputTokens: 1, outputTokens: 1 });
    }
    await manager.flush();
    expect(store.saves).toBe(afterStart);
    work.complete('done');
    await manager.wait('t1');
    await manager.flush();
    expect(store.saves).toBe(afterStart + 1);
    expect(store.saved.tasks[0].task).toMatchObject({ status: 'completed', usage: { inputTokens: 50, outputTokens: 50 } });
  });

  it('reports a failing store as a warning and keeps running', async () => {
    const warnings: string[] = [];
    const manager = new TaskManager({
      clock: new ManualClock(),
      store: { load: async () => ({ version: 1, tasks: [] }), save: async () => Promise.reject(new Error('disk full')) },
      onWarning: (message) => warnings.push(message),
    });
    const work = new StagedWork();
    await manager.start(task(work));
    await work.started;
    work.complete('still fine');
    expect((await manager.wait('t1')).status).toBe('completed');
    await manager.flush();
    expect(warnings[0]).toContain('disk full');
  });

  it('clearHistory removes ended trees (keeping trees with live tasks) and persists', async () => {
    const store = new InMemoryTaskStore();
    const manager = new TaskManager({ clock: new ManualClock(), store });
    const done = new StagedWork();
    await manager.start(task(done));
    await done.started;
    const doneChild = new StagedWork();
    await manager.start(task(doneChild, { parentId: 't1' }));
    await doneChild.started;
    doneChild.complete('child');
    done.complete('root');
    await manager.wait('t1');
    await manager.wait('t2');
    const live = new StagedWork();
    await manager.start(task(live));
    await live.started;
    const liveChildDone = new StagedWork();
    await manager.start(task(liveChildDone, { parentId: 't3' }));
    await liveChildDone.started;
    liveChildDone.complete('finished under a live parent');
    await manager.wait('t4');

    expect(await manager.clearHistory()).toEqual(['t1', 't2']);
    expect(manager.list().map((snapshot) => snapshot.id)).toEqual(['t3', 't4']);
    expect(store.saved.tasks.map((persisted) => persisted.task.id)).toEqual(['t3', 't4']);
  });
});
