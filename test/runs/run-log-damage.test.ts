import { appendFile, mkdtemp, readFile, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunLog } from '../../src/engine/runs/run-log.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { StagedWork } from '../tasks/support/staged-work.js';
import { type RunLogWorld, createRunLogWorld, finishedRun, task } from './support/run-log-world.js';

let world: RunLogWorld;

beforeEach(async () => {
  world = await createRunLogWorld();
});

afterEach(async () => {
  await world.remove();
});

/** A run of one task with three transcript entries, on disk. */
async function runOfThreeEntries(): Promise<string> {
  const work = new StagedWork();
  await world.manager.start(task(work));
  const context = await work.started;
  for (const text of ['one', 'two', 'three']) context.appendTranscript({ type: 'text', text });
  work.complete('three');
  await world.manager.wait('t1');
  await world.runLog.flush();
  return path.join(world.directory, 't1.jsonl');
}

describe('RunLog: a damaged run file costs the damaged lines only', () => {
  it('skips a last line cut short by a crash, with a warning, and keeps the rest of the run', async () => {
    const file = await runOfThreeEntries();
    await appendFile(file, '{"type":"entry","taskId":"t1","index":3,"entry":{"type":"te');
    const contents = await (await world.reopen()).read('t1');
    expect(contents?.tasks[0]?.transcript.map((entry) => entry.type === 'text' && entry.text)).toEqual(['one', 'two', 'three']);
    expect(contents?.tasks[0]?.task.status).toBe('completed');
    expect(world.warnings).toEqual(['t1.jsonl: the last line was cut short (a crash while writing?); it was skipped']);
  });

  it('skips a damaged line in the middle, naming the file and the line, and keeps the others', async () => {
    const file = await runOfThreeEntries();
    const lines = (await readFile(file, 'utf8')).split('\n');
    // Lines 3 and 4 hold the entries 'one' and 'two'.
    lines.splice(2, 1, '{"type":"entry","taskId":"t1", garbage');
    lines.splice(3, 1, JSON.stringify({ type: 'entry', taskId: 't1', index: 'two' }));
    await writeFile(file, lines.join('\n'));
    const contents = await world.runLog.read('t1');
    expect(contents?.tasks[0]?.transcript.map((entry) => entry.type === 'text' && entry.text)).toEqual(['three']);
    expect(world.warnings).toEqual([
      expect.stringMatching(/^t1\.jsonl: line 3 is not JSON/),
      expect.stringMatching(/^t1\.jsonl: line 4 does not fit a run record/),
    ]);
  });

  it('ignores a record of a type a newer version wrote', async () => {
    const file = await runOfThreeEntries();
    await appendFile(file, `${JSON.stringify({ type: 'something-new', taskId: 't1' })}\n`);
    expect((await world.runLog.read('t1'))?.tasks).toHaveLength(1);
    expect(world.warnings).toEqual([]);
  });

  it('starts its own line after a line an earlier process left cut short', async () => {
    const runId = await finishedRun(world.manager, 'first');
    await world.runLog.flush();
    await appendFile(path.join(world.directory, `${runId}.jsonl`), '{"type":"task","ta');
    const later = await world.reopen();
    const manager = new TaskManager({ clock: world.clock, store: later });
    later.attach(manager);
    await manager.load();
    const followUp = new StagedWork();
    await manager.start(task(followUp, { parentId: runId, followUp: true }));
    followUp.complete('second');
    await manager.wait('t2');
    expect((await later.read(runId))?.tasks.map((persisted) => persisted.task.output)).toEqual(['first', 'second']);
    // Cut short when the later process loaded it; after its append, an ordinary damaged line.
    expect(world.warnings).toEqual([
      't1.jsonl: the last line was cut short (a crash while writing?); it was skipped',
      expect.stringMatching(/^t1\.jsonl: line 5 is not JSON/),
    ]);
    await later.close();
  });

  it('drops a conversation that misses a line until it is recorded whole again', async () => {
    const work = new StagedWork();
    await world.manager.start(task(work));
    const context = await work.started;
    const say = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });
    context.recordConversation?.([say('a')]);
    context.recordConversation?.([say('a'), say('b'), say('c')]);
    context.recordConversation?.([say('a'), say('b'), say('c'), say('d')]);
    await world.runLog.flush();
    const file = path.join(world.directory, 't1.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    await writeFile(
      file,
      lines
        .filter((line) => !line.includes('"from":0,"messages":[{"role":"user","content":[{"type":"text","text":"a"}]},{"role"'))
        .join('\n'),
    );
    expect((await world.runLog.read('t1'))?.conversations.has('t1')).toBe(false);
    expect(world.warnings).toEqual([expect.stringContaining("goes on with task t1's conversation from message 2, but 1 are recorded")]);
    work.complete('done');
    await world.manager.wait('t1');
  });
});

describe('RunLog: what it refuses', () => {
  it('does not read an index too large for any history (planted?), says so, and never rewrites it to nothing', async () => {
    const index = path.join(world.directory, 'index.jsonl');
    await writeFile(index, '');
    await truncate(index, 300 * 1024 * 1024);
    const later = await world.reopen();
    expect(later.runs()).toEqual([]);
    expect(world.warnings).toEqual([
      expect.stringMatching(/^The run index .*index\.jsonl is 300 MiB, more than any history keeps \(planted\?\); it is not read/),
    ]);
    // A run written afterwards is appended: the file is neither replaced nor emptied.
    const manager = new TaskManager({ clock: world.clock, store: later });
    later.attach(manager);
    await finishedRun(manager);
    await later.flush();
    expect(later.runs().map((run) => run.runId)).toEqual(['t1']);
    expect((await stat(index)).size).toBeGreaterThan(300 * 1024 * 1024);
    await later.close();
  });

  it('never writes through a symbolic link in place of a run file, nor reads one', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'agent-team-outside-'));
    try {
      const target = path.join(outside, 'precious.txt');
      await writeFile(target, 'keep me\n');
      await symlink(target, path.join(world.directory, 't1.jsonl'));
      await finishedRun(world.manager);
      await world.runLog.flush();
      expect(await readFile(target, 'utf8')).toBe('keep me\n');
      expect(world.warnings).toEqual([expect.stringMatching(/^Could not write run t1 .*symbolic link/)]);
      expect(await world.runLog.read('t1')).toBeUndefined();
      expect(world.warnings[1]).toMatch(/^Could not read run t1: .*symbolic link/);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('does not open a directory that is a symbolic link', async () => {
    const link = path.join(world.directory, 'linked');
    await symlink(world.directory, link);
    await expect(RunLog.open({ directory: link })).rejects.toThrow(/symbolic link/);
  });

  it('does not write a record over the line cap, says which, and sends the next conversation whole', async () => {
    const work = new StagedWork();
    await world.manager.start(task(work));
    const context = await work.started;
    const huge = 'x'.repeat(17 * 1024 * 1024);
    context.recordConversation?.([{ role: 'user', content: [{ type: 'text', text: huge }] }]);
    context.recordConversation?.([
      { role: 'user', content: [{ type: 'text', text: 'short' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ]);
    work.complete('done');
    await world.manager.wait('t1');
    await world.runLog.flush();
    expect(world.warnings).toEqual([
      'Run t1: the conversation record of task t1 is 17.0 MiB, over the 16 MiB a line may hold; it was not written.',
    ]);
    const conversations = (await world.lines('t1')).filter((line) => line.type === 'conversation');
    expect(conversations.map((line) => line.from)).toEqual([0]);
    expect((await world.runLog.read('t1'))?.conversations.get('t1')).toHaveLength(2);
  });

  it('refuses run ids that could name another file', async () => {
    await world.runLog.close();
    const log = await RunLog.open({ directory: world.directory, onWarning: (message) => world.warnings.push(message) });
    const manager = new TaskManager({ clock: world.clock, generateId: () => '../escape', store: log });
    log.attach(manager);
    const work = new StagedWork();
    await manager.start(task(work));
    work.complete('done');
    await manager.wait('../escape');
    await log.flush();
    expect(world.warnings).toEqual(["Run \"../escape\" is not logged: a run id is 1-100 letters, digits, '-' or '_'."]);
    expect(await log.read('../escape')).toBeUndefined();
    expect(log.runs()).toEqual([]);
  });

  it('skips a damaged index line with a warning', async () => {
    await finishedRun(world.manager);
    await world.runLog.flush();
    await appendFile(path.join(world.directory, 'index.jsonl'), 'not an index line\n');
    const later = await world.reopen();
    expect(later.runs().map((run) => run.runId)).toEqual(['t1']);
    expect(world.warnings).toEqual(['index.jsonl: line 2 is not a run index line; it was skipped']);
  });
});
