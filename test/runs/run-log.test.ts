import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import type { ModelMessage } from '../../src/engine/model/types.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { StagedWork } from '../tasks/support/staged-work.js';
import { type RunLogWorld, createRunLogWorld, finishedRun, task } from './support/run-log-world.js';

let world: RunLogWorld;

beforeEach(async () => {
  world = await createRunLogWorld();
});

afterEach(async () => {
  await world.remove();
  // Nothing here is damaged: any warning is a bug.
  expect(world.warnings).toEqual([]);
});

const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const callRead: ModelMessage = {
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'Read', input: { file_path: 'a.ts' } }],
};

describe('RunLog: what it writes as the events happen', () => {
  it('writes tasks, transcripts and conversations as they happen, and reads them back', async () => {
    const { manager, runLog } = world;
    const root = new StagedWork();
    await manager.start(task(root));
    const context = await root.started;
    context.setModel('scripted/model');
    context.appendTranscript({ type: 'text', text: 'Looking' });
    context.recordConversation?.([user('Where are dates parsed?')]);
    await runLog.flush();
    expect((await world.lines('t1')).map((line) => line.type)).toEqual(['task', 'task', 'task', 'entry', 'conversation']);

    // A usage update changes neither status, background nor model: no task record.
    context.reportUsage({ inputTokens: 10, outputTokens: 2 });
    context.appendTranscript({ type: 'tool-call', toolCallId: 'c1', toolName: 'Read', input: { file_path: 'a.ts' } });
    context.recordConversation?.([user('Where are dates parsed?'), callRead, user('notice')]);
    // The last message gained a part since the previous record: only it is sent again.
    const grown: ModelMessage = {
      role: 'user',
      content: [
        { type: 'tool-result', toolCallId: 'c1', toolName: 'Read', output: 'parse()', isError: false },
        { type: 'text', text: 'notice' },
      ],
    };
    context.recordConversation?.([user('Where are dates parsed?'), callRead, grown]);
    context.appendTranscript({ type: 'tool-result', toolCallId: 'c2', toolName: 'Grep', output: 'found', isError: false });
    await runLog.flush();
    const conversations = (await world.lines('t1')).filter((line) => line.type === 'conversation');
    expect(conversations.map((line) => [line.from, (line.messages as unknown[]).length])).toEqual([
      [0, 1],
      [0, 3],
      [2, 1],
    ]);
    expect((await world.lines('t1')).filter((line) => line.type === 'task')).toHaveLength(3);

    const child = new StagedWork();
    await manager.start(task(child, { parentId: 't1', role: 'reviewer', description: 'Check it' }));
    (await child.started).appendTranscript({ type: 'text', text: 'fine' });
    child.complete('fine');
    await manager.wait('t2');
    const contents = await runLog.read('t1');
    expect(contents?.tasks.map((persisted) => [persisted.task.id, persisted.task.status])).toEqual([
      ['t1', 'running'],
      ['t2', 'completed'],
    ]);
    expect(contents?.tasks[0]?.task.model).toBe('scripted/model');
    expect(contents?.tasks[0]?.transcript.map((entry) => entry.type)).toEqual(['text', 'tool-call', 'tool-result']);
    expect(contents?.tasks[0]?.partialOutput).toBe('Looking');
    expect(contents?.conversations.get('t1')).toEqual([user('Where are dates parsed?'), callRead, grown]);
    expect(contents?.resultsAfterConversation.get('t1')).toEqual([
      { type: 'tool-result', toolCallId: 'c2', toolName: 'Grep', output: 'found', isError: false },
    ]);
    expect(runLog.runOf('t2')).toBe('t1');
    root.complete('answer');
    await manager.wait('t1');
  });

  it('keeps conversations for follow-ups in the run of their key, for a later process too', async () => {
    const runId = await finishedRun(world.manager);
    await world.runLog.conversations.save(runId, [user('question'), { role: 'assistant', content: [{ type: 'text', text: 'answer' }] }]);
    await world.runLog.conversations.save(runId, [user('question 2')]);
    expect(await world.runLog.conversations.load(runId)).toEqual([user('question 2')]);
    const later = await world.reopen();
    expect(await later.conversations.load(runId)).toEqual([user('question 2')]);
    expect(await later.conversations.load('t99')).toBeUndefined();
    await later.close();
  });

  it("records each task's proposals as they change, and a removed set as removed", async () => {
    const registry = new ChangeSetRegistry();
    world.runLog.attachChanges(registry);
    const work = new StagedWork();
    await world.manager.start(task(work));
    await work.started;
    const changeSet = registry.createWhenUsed('t1', 'researcher');
    changeSet.propose('a.txt', { baseContent: 'a\n', proposedContent: 'b\n' });
    changeSet.propose('a.txt', { baseContent: 'a\n', proposedContent: 'c\n' });
    work.complete('proposed');
    await world.manager.wait('t1');
    await world.runLog.flush();
    // Two edits before the run was written: one record, the proposal as it was then.
    expect((await world.lines('t1')).filter((line) => line.type === 'proposals')).toHaveLength(1);
    expect(
      (await world.runLog.read('t1'))?.changeSets.map((set) => set.files.map((file) => [file.proposedContent, file.hunks[0]?.decision])),
    ).toEqual([[['c\n', 'pending']]]);

    // A review decision after the task ended is written without waiting for a flush.
    changeSet.accept();
    await world.runLog.flush();
    expect((await world.runLog.read('t1'))?.changeSets[0]?.files[0]?.hunks[0]?.decision).toBe('accepted');

    changeSet.reject();
    registry.remove('t1');
    await world.runLog.flush();
    expect((await world.runLog.read('t1'))?.changeSets).toEqual([]);
  });
});

describe("RunLog as the task manager's store", () => {
  it('gives a history a second task manager loads as the first had it', async () => {
    const { manager } = world;
    const root = new StagedWork();
    await manager.start(task(root, { maxTokens: 10_000 }));
    const context = await root.started;
    context.reportUsage({ inputTokens: 40, outputTokens: 2 });
    for (const text of ['one', 'two']) context.appendTranscript({ type: 'text', text });
    const child = new StagedWork();
    await manager.start(task(child, { parentId: 't1' }));
    child.fail('could not finish', 'half');
    root.complete('done');
    await manager.wait('t1');
    await finishedRun(manager, 'second');
    await world.runLog.flush();

    const reloaded = new TaskManager({ clock: world.clock, store: await world.reopen() });
    await reloaded.load();
    expect(reloaded.list()).toEqual(manager.list());
    // The first manager keeps its finished transcripts in the log (run-transcripts.test.ts): read back, they agree.
    expect(reloaded.transcript('t1')).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ]);
    expect(reloaded.transcript('t1')).toEqual(await manager.readTranscript('t1'));
    expect(reloaded.transcript('t3')).toEqual(await manager.readTranscript('t3'));
  });

  it('brings back a task the process never ended as interrupted, with its last words', async () => {
    const root = new StagedWork();
    await world.manager.start(task(root));
    (await root.started).appendTranscript({ type: 'text', text: 'halfway there' });
    await world.runLog.flush(); // The process dies here: no end, no close.

    const reloaded = new TaskManager({ clock: world.clock, store: await world.reopen() });
    await reloaded.load();
    expect(reloaded.get('t1')).toMatchObject({ status: 'interrupted', output: 'halfway there' });
    root.complete('done');
    await world.manager.wait('t1');
  });

  it('loads only the newest runs it is asked for', async () => {
    for (let run = 0; run < 3; run++) {
      await finishedRun(world.manager, `run ${run}`);
      await world.clock.advance(1000);
    }
    const log = await world.reopen({ loadRuns: 2 });
    expect((await log.load()).tasks.map((persisted) => persisted.task.id)).toEqual(['t2', 't3']);
  });

  it("caps each task's transcript at the most recent 1,000 entries and says how many were left out", async () => {
    const work = new StagedWork();
    await world.manager.start(task(work));
    const context = await work.started;
    for (let entry = 0; entry < 2500; entry++) context.appendTranscript({ type: 'notice', text: `entry ${entry}` });
    work.complete('done');
    await world.manager.wait('t1');
    const [loaded] = (await world.runLog.load()).tasks;
    expect(loaded?.transcript).toHaveLength(1000);
    expect(loaded?.transcript[0]).toEqual({ type: 'notice', text: 'entry 1500' });
    expect(loaded?.droppedTranscriptEntries).toBe(1500);
  });

  it('loadRun reads that run only', async () => {
    await finishedRun(world.manager, 'first');
    await finishedRun(world.manager, 'second');
    const history = await world.runLog.loadRun('t2');
    expect(history.tasks.map((persisted) => persisted.task.id)).toEqual(['t2']);
    expect((await world.runLog.loadRun('t404')).tasks).toEqual([]);
  });
});

describe('RunLog: the index', () => {
  it("lists the runs newest first with their root's status, tasks and file size", async () => {
    await finishedRun(world.manager, 'first');
    await world.clock.advance(1000);
    const root = new StagedWork();
    await world.manager.start(task(root, { description: 'Second run' }));
    const child = new StagedWork();
    await world.manager.start(task(child, { parentId: 't2' }));
    await world.runLog.flush();
    const [newest, oldest] = world.runLog.runs();
    expect(newest).toMatchObject({ runId: 't2', description: 'Second run', status: 'running', taskIds: ['t2', 't3'], openTasks: 2 });
    expect(oldest).toMatchObject({ runId: 't1', status: 'completed', taskIds: ['t1'], openTasks: 0 });
    expect(oldest?.bytes).toBe((await stat(path.join(world.directory, 't1.jsonl'))).size);
    expect((await world.reopen()).runs().map((run) => run.runId)).toEqual(['t2', 't1']);
    child.complete('x');
    root.complete('y');
    await world.manager.wait('t2');
  });

  it('forgets runs: their files and index lines go, a run still working stays', async () => {
    await finishedRun(world.manager);
    const working = new StagedWork();
    await world.manager.start(task(working));
    await world.runLog.forget(['t1', 't2']);
    await expect(stat(path.join(world.directory, 't1.jsonl'))).rejects.toThrow();
    expect(world.runLog.runs().map((run) => run.runId)).toEqual(['t2']);
    expect(world.runLog.runOf('t1')).toBeUndefined();
    expect((await world.reopen()).runs().map((run) => run.runId)).toEqual(['t2']);
    working.complete('done');
    await world.manager.wait('t2');
  });

  it('appends a follow-up of a later process to the run it follows', async () => {
    const runId = await finishedRun(world.manager, 'first answer');
    const later = await world.reopen();
    const manager = new TaskManager({ clock: world.clock, store: later });
    later.attach(manager);
    await manager.load();
    const followUp = new StagedWork();
    const { task: started } = await manager.start(task(followUp, { parentId: runId, followUp: true }));
    followUp.complete('second answer');
    await manager.wait(started.id);
    expect((await later.read(runId))?.tasks.map((persisted) => [persisted.task.id, persisted.task.output])).toEqual([
      ['t1', 'first answer'],
      ['t2', 'second answer'],
    ]);
    expect(later.runs()[0]?.taskIds).toEqual(['t1', 't2']);
    await later.close();
  });
});
