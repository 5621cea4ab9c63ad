/**
 * The run log as the task manager's transcript archive: a finished task's transcript leaves the heap once
 * the log has written it, and comes back from the run's file for whoever asks (`readTranscript`), a
 * resumed task's included. What the log did not see whole stays in memory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunLog } from '../../src/engine/runs/run-log.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { StagedWork } from '../tasks/support/staged-work.js';
import { type RunLogWorld, createRunLogWorld, finishedRun, task } from './support/run-log-world.js';

let world: RunLogWorld | undefined;
const closing: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  for (const item of closing.splice(0).reverse()) await item.close();
  await world?.remove();
  // Nothing here is damaged: any warning is a bug.
  expect(world?.warnings ?? []).toEqual([]);
  world = undefined;
});

describe('RunLog as the transcript archive', () => {
  it("lets go of a finished task's transcript once it is written, and reads it back", async () => {
    world = await createRunLogWorld();
    const { manager } = world;
    const work = new StagedWork();
    const { task: started } = await manager.start(task(work));
    const context = await work.started;
    context.appendTranscript({ type: 'text', text: 'Looking' });
    context.appendTranscript({ type: 'tool-call', toolCallId: 'c1', toolName: 'Read', input: { file_path: 'a.ts' } });
    // While it runs, the transcript is in memory, as the live views need it.
    expect(manager.transcript(started.id)).toHaveLength(2);
    work.complete('Found it.');
    await manager.wait(started.id);
    const before = manager.get(started.id);
    await manager.flush();

    expect(manager.transcript(started.id)).toEqual([]);
    expect(await manager.readTranscript(started.id)).toEqual([
      { type: 'text', text: 'Looking' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'Read', input: { file_path: 'a.ts' } },
    ]);
    // The summary is the same: status, output, transcript length.
    expect(manager.get(started.id)).toEqual(before);
    expect(manager.get(started.id)).toMatchObject({ status: 'completed', output: 'Found it.', transcriptLength: 2 });
  });

  it("lets go of ended subtasks' transcripts in the turn their run is written, without waiting for the event loop", async () => {
    // A run whose work does no I/O of its own (B6's scripted team): the log once let go only after its
    // file had been opened through libuv's pool, that is when the event loop next turned, so a run of
    // 100,000 tasks that never turned it held every transcript until the end.
    world = await createRunLogWorld();
    const { manager } = world;
    const rootWork = new StagedWork();
    const { task: root } = await manager.start(task(rootWork));
    await rootWork.started;
    const children = [];
    for (let index = 0; index < 3; index++) {
      const work = new StagedWork();
      const { task: child } = await manager.start(task(work, { parentId: root.id, description: `Part ${index}` }));
      (await work.started).appendTranscript({ type: 'text', text: `part ${index} looked` });
      children.push({ work, child });
    }
    let turned = false;
    setImmediate(() => (turned = true));
    for (const { work, child } of children) {
      work.complete(`part of ${child.id}`);
      await manager.wait(child.id);
    }
    await manager.flush();

    expect(turned).toBe(false);
    expect(children.map(({ child }) => manager.transcript(child.id))).toEqual(children.map(() => []));
    for (const { child } of children)
      expect(await manager.readTranscript(child.id)).toEqual([{ type: 'text', text: `part ${child.description.slice(5)} looked` }]);
    rootWork.complete('all parts');
    await manager.wait(root.id);
  });

  it('reads back the most recent entries only, with the notice the manager gives, past its limit', async () => {
    world = await createRunLogWorld({}, { maxTranscriptEntries: 2 });
    const work = new StagedWork();
    const { task: started } = await world.manager.start(task(work));
    const context = await work.started;
    for (const text of ['one', 'two', 'three']) context.appendTranscript({ type: 'text', text });
    const inMemory = world.manager.transcript(started.id);
    work.complete('three');
    await world.manager.wait(started.id);
    await world.manager.flush();

    expect(world.manager.transcript(started.id)).toEqual([]);
    expect(await world.manager.readTranscript(started.id)).toEqual(inMemory);
    expect(inMemory).toEqual([
      { type: 'notice', text: '1 earlier transcript entries were not kept (the limit is 2).' },
      { type: 'text', text: 'two' },
      { type: 'text', text: 'three' },
    ]);
  });

  it('keeps in memory the transcript of a task it took up halfway', async () => {
    world = await createRunLogWorld();
    const directory = await mkdtemp(path.join(tmpdir(), 'agent-team-runs-late-'));
    const late = await RunLog.open({ directory, onWarning: (message) => world?.warnings.push(message) });
    closing.push({ close: () => rm(directory, { recursive: true, force: true }) }, late);
    const manager = new TaskManager({ clock: world.clock });
    const work = new StagedWork();
    const { task: started } = await manager.start(task(work));
    (await work.started).appendTranscript({ type: 'text', text: 'before the log' });
    late.attach(manager);
    work.complete('done');
    await manager.wait(started.id);
    await manager.flush();
    expect(manager.transcript(started.id)).toEqual([{ type: 'text', text: 'before the log' }]);
    expect(await manager.readTranscript(started.id)).toEqual([{ type: 'text', text: 'before the log' }]);
  });

  it('archives the history it loads from the log, and brings a transcript back when its task is resumed', async () => {
    world = await createRunLogWorld();
    const first = new StagedWork();
    const { task: started } = await world.manager.start(task(first));
    const context = await first.started;
    context.appendTranscript({ type: 'text', text: 'first turn' });
    context.appendTranscript({ type: 'tool-call', toolCallId: 'c1', toolName: 'Read', input: { file_path: 'a.ts' } });
    // The process dies here; the next one loads the run as interrupted and follows the same log.
    const log = await world.reopen();
    closing.push(log);
    const manager = new TaskManager({ clock: world.clock, store: log });
    closing.push({ close: () => manager.close() });
    await manager.load();
    // As the extension does: the log is told the task is interrupted (a record of a task it never saw start here).
    log.recordInterrupted([manager.get(started.id)!], world.clock.now());
    log.attach(manager);
    await manager.flush();
    expect(manager.get(started.id)?.status).toBe('interrupted');
    expect(manager.transcript(started.id)).toEqual([]);
    expect(await manager.readTranscript(started.id)).toHaveLength(2);

    const second = new StagedWork();
    await manager.resume(started.id, second.work);
    const resumed = await second.started;
    resumed.appendTranscript({ type: 'notice', text: 'resumed' });
    // Resuming does not wait for the read: the earlier entries come in ahead of the new ones.
    await manager.flush();
    expect(manager.transcript(started.id)).toEqual([
      { type: 'text', text: 'first turn' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'Read', input: { file_path: 'a.ts' } },
      { type: 'notice', text: 'resumed' },
    ]);
    resumed.appendTranscript({ type: 'text', text: 'second turn' });
    second.complete('second turn');
    await manager.wait(started.id);
    await manager.flush();
    expect(manager.transcript(started.id)).toEqual([]);
    expect(
      (await manager.readTranscript(started.id)).map((entry) =>
        entry.type === 'text' || entry.type === 'notice' ? entry.text : entry.type,
      ),
    ).toEqual(['first turn', 'tool-call', 'resumed', 'second turn']);
    first.complete('too late');
  });

  it('says so when the run was removed from the log', async () => {
    world = await createRunLogWorld();
    const runId = await finishedRun(world.manager);
    await world.manager.flush();
    await world.runLog.forget([runId]);
    expect(await world.manager.readTranscript(runId)).toEqual([
      { type: 'notice', text: `The transcript of task ${runId} is no longer kept: its run was removed from the run history.` },
    ]);
  });

  it('leaves transcripts in memory once detached, and still reads back those it took', async () => {
    world = await createRunLogWorld();
    const detached = new TaskManager({ clock: world.clock });
    const detach = world.runLog.attach(detached);
    const first = await finishedRun(detached, 'archived');
    await detached.flush();
    detach();
    const second = await finishedRun(detached, 'kept');
    await detached.flush();
    expect(detached.transcript(first)).toEqual([]);
    expect(await detached.readTranscript(first)).toEqual([{ type: 'text', text: 'archived' }]);
    expect(detached.transcript(second)).toEqual([{ type: 'text', text: 'kept' }]);
  });
});

describe('TaskManager without a transcript archive', () => {
  it('keeps every transcript in memory, as it always did', async () => {
    const manager = new TaskManager();
    const runId = await finishedRun(manager);
    await manager.flush();
    expect(manager.transcript(runId)).toEqual([{ type: 'text', text: 'done' }]);
    expect(await manager.readTranscript(runId)).toEqual([{ type: 'text', text: 'done' }]);
  });
});
