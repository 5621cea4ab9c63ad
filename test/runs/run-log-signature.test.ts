import { appendFile, chmod, chown, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunSigning, keyFolderOf, runFolderSigning } from '../../src/engine/runs/run-log-key.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { StagedWork } from '../tasks/support/staged-work.js';
import { type RunLogWorld, createRunLogWorld, finishedRun, task } from './support/run-log-world.js';

let home: string;
let world: RunLogWorld;
let signing: RunSigning;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
  world = await createRunLogWorld(async (directory) => {
    signing = await runFolderSigning(home, directory);
    return { signing };
  });
});

afterEach(async () => {
  await world.remove();
  await rm(home, { recursive: true, force: true });
});

async function runFile(runId: string): Promise<string> {
  await world.runLog.flush();
  return path.join(world.directory, `${runId}.jsonl`);
}

describe('run-log signing: the key', () => {
  it('is made once per user, 0600 in a 0700 folder outside the workspace, and gives each folder a key of its own', async () => {
    expect('key' in signing).toBe(true);
    const keyFile = path.join(keyFolderOf(home), 'run-log.key');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect((await stat(keyFolderOf(home))).mode & 0o777).toBe(0o700);
    const again = await runFolderSigning(home, world.directory);
    const elsewhere = await runFolderSigning(home, home);
    expect('key' in again && 'key' in signing && again.key.equals(signing.key)).toBe(true);
    expect('key' in elsewhere && 'key' in signing && elsewhere.key.equals(signing.key)).toBe(false);
  });

  it.skipIf(process.getuid?.() !== 0)('is refused when its folder belongs to another user (as root: chown)', async () => {
    const other = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
    try {
      await mkdir(keyFolderOf(other), { recursive: true, mode: 0o700 });
      await chown(keyFolderOf(other), 65534, 65534);
      expect(await runFolderSigning(other, world.directory)).toEqual({
        problem: expect.stringContaining('belongs to another user (uid 65534)'),
      });
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('is refused when the key is a link or others can read its folder, saying which', async () => {
    const other = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
    try {
      await mkdir(keyFolderOf(other), { recursive: true, mode: 0o700 });
      await symlink(path.join(home, 'elsewhere'), path.join(keyFolderOf(other), 'run-log.key'));
      expect(await runFolderSigning(other, world.directory)).toEqual({
        problem: expect.stringMatching(/run-log\.key\) cannot be used: .*(ELOOP|symbolic link)/),
      });
      await rm(path.join(keyFolderOf(other), 'run-log.key'));
      await chmod(keyFolderOf(other), 0o755);
      expect(await runFolderSigning(other, world.directory)).toEqual({
        problem: expect.stringContaining('can be read or written by others (mode 755)'),
      });
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});

describe('run-log signing: what verifies', () => {
  it('a run this log wrote is signed, every line with its MAC, and still reads as before', async () => {
    const runId = await finishedRun(world.manager, 'answer');
    await world.runLog.flush();
    const lines = await world.lines(runId);
    expect(
      lines.every((line) => typeof line.mac === 'string' && Object.keys(line).at(-1) === 'mac' && Object.keys(line)[0] === 'type'),
    ).toBe(true);
    const contents = await (await world.reopen()).read(runId);
    expect(contents?.signature).toEqual({ status: 'signed' });
    expect(contents?.tasks[0]?.task.output).toBe('answer');
    expect(await world.runLog.signatureOf(runId)).toEqual({ status: 'signed' });
  });

  it('a later process goes on with the chain, after a line a crash cut short too', async () => {
    const runId = await finishedRun(world.manager, 'first');
    await appendFile(await runFile(runId), '{"type":"task","ta');
    const later = await world.reopen();
    const manager = new TaskManager({ clock: world.clock, store: later });
    later.attach(manager);
    await manager.load();
    const followUp = new StagedWork();
    await manager.start(task(followUp, { parentId: runId, followUp: true }));
    followUp.complete('second');
    await manager.wait('t2');
    const contents = await later.read(runId);
    expect(contents?.signature).toEqual({ status: 'signed' });
    expect(contents?.tasks.map((persisted) => persisted.task.output)).toEqual(['first', 'second']);
    expect(world.warnings).toContainEqual(expect.stringMatching(/^t1\.jsonl: line \d+ does not verify \(a line cut short by a crash/));
    await later.close();
  });

  it('a run log edited, with a line removed, copied from another folder or written unsigned is foreign', async () => {
    const runId = await finishedRun(world.manager, 'mine');
    const file = await runFile(runId);
    const original = await readFile(file, 'utf8');
    const lines = original.split('\n').filter((line) => line !== '');

    await writeFile(file, original.replace('"mine"', '"theirs"'));
    expect(await world.runLog.signatureOf(runId)).toEqual({ status: 'foreign', reason: 'altered' });
    await writeFile(file, `${[lines[0], ...lines.slice(2)].join('\n')}\n`);
    expect(await world.runLog.signatureOf(runId)).toEqual({ status: 'foreign', reason: 'altered' });
    await writeFile(file, `${lines.map((line) => line.replace(/,"mac":"[^"]+"\}$/, '}')).join('\n')}\n`);
    expect(await world.runLog.signatureOf(runId)).toEqual({ status: 'foreign', reason: 'unsigned' });
    // Read anyway (a user's --force), an unsigned run reads whole, as before signing.
    expect((await world.runLog.read(runId))?.tasks[0]?.task.output).toBe('mine');

    const elsewhere = await mkdtemp(path.join(tmpdir(), 'agent-team-signed-'));
    try {
      const otherFolder = await createRunLogWorld(async (directory) => {
        await writeFile(path.join(directory, `${runId}.jsonl`), original);
        return { signing: await runFolderSigning(home, directory) };
      });
      expect(await otherFolder.runLog.signatureOf(runId)).toEqual({ status: 'foreign', reason: 'altered' });
      await otherFolder.remove();
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('a forged line inserted in a signed run is never used', async () => {
    const runId = await finishedRun(world.manager, 'mine');
    const file = await runFile(runId);
    const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
    const forged = JSON.stringify({
      type: 'kept-conversation',
      key: runId,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'planted' }] }],
    });
    await writeFile(file, `${[...lines.slice(0, 1), forged, ...lines.slice(1)].join('\n')}\n`);
    const contents = await world.runLog.read(runId);
    expect(contents?.keptConversations.has(runId)).toBe(false);
  });

  it('without a key every run is foreign, and says why', async () => {
    const unsignedWorld = await createRunLogWorld({ signing: { problem: 'the home is not writable' } });
    try {
      const runId = await finishedRun(unsignedWorld.manager);
      await unsignedWorld.runLog.flush();
      expect(await unsignedWorld.runLog.signatureOf(runId)).toEqual({
        status: 'foreign',
        reason: 'no-key',
        problem: 'the home is not writable',
      });
    } finally {
      await unsignedWorld.remove();
    }
  });
});

describe('run-log signing: a crash in the first write', () => {
  it('a run whose very first line was cut short, then written on, still verifies', async () => {
    await writeFile(path.join(world.directory, 't1.jsonl'), '{"type":"task","task":{"id":"t1"');
    const later = await world.reopen();
    const manager = new TaskManager({ clock: world.clock, store: later });
    later.attach(manager);
    const work = new StagedWork();
    await manager.start(task(work));
    work.complete('after the crash');
    // The manager numbers from t1: its run is appended to the file the crash left.
    expect(manager.list().map((started) => started.id)).toEqual(['t1']);
    await manager.wait('t1');
    const contents = await later.read('t1');
    expect(contents?.signature).toEqual({ status: 'signed' });
    expect(contents?.tasks[0]?.task.output).toBe('after the crash');
    await later.close();
  });
});
