/**
 * Run files planted in a repository (its `.agent-team/runs` is part of the checkout), through the real
 * CLI bundle: a FIFO or a link to /dev/zero in place of a lock neither hangs nor blows up a run; a run
 * written with another user's key (the attacker ran agent-team and committed the folder) or by hand is
 * listed as foreign, and neither gone on with nor applied without --force; with --force it is.
 */
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textTurn } from '../support/mock-provider/index.js';
import { providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';
import { expectedMath, originalMath, originalReadme, runRefactorer } from './refactorer-run.js';

const world = useCliWorld({ 'math.ts': originalMath, 'README.md': originalReadme });
let userHome: string;
let attackerHome: string;

beforeEach(async () => {
  userHome = await mkdtemp(path.join(tmpdir(), 'agent-team-user-'));
  attackerHome = await mkdtemp(path.join(tmpdir(), 'agent-team-attacker-'));
});

afterEach(async () => {
  await rm(userHome, { recursive: true, force: true });
  await rm(attackerHome, { recursive: true, force: true });
});

const runsFolder = () => path.join(world.workspace, '.agent-team', 'runs');

/** The CLI as the user runs it: their own home (and key), the mock provider answering `answer`. */
function asUser(args: string[], answer = 'All fine.') {
  world.server.respondWith(() => textTurn(answer));
  const provider = providerEnvironment('openai', world.server.baseUrl);
  const providerArgs = args[0] === 'run' ? provider.args : [];
  return startCli(world.cliPath, [...args, '--workspace', world.workspace, ...providerArgs], { ...provider.env, HOME: userHome }).exited;
}

describe('a planted lock', () => {
  it.each([
    ['a FIFO', (file: string) => execFileSync('mkfifo', [file])],
    ['a link to /dev/zero', (file: string) => symlink('/dev/zero', file)],
  ])('%s as t1.lock: a new run finishes, and going on with t1 takes the lock over with a warning', async (_kind, plant) => {
    const first = await asUser(['run', '--agent', 'researcher', 'Where is main?']);
    expect(first.code, first.stderr).toBe(0);
    await plant(path.join(runsFolder(), 't1.lock'));
    const fresh = await asUser(['run', '--agent', 'researcher', 'And now?']);
    expect(fresh.code, fresh.stderr).toBe(0);
    const goesOn = await asUser(['run', '--continue', 't1', 'Anything else?'], 'Nothing else.');
    expect(goesOn.code, goesOn.stderr).toBe(0);
    expect(goesOn.stdout).toContain('Nothing else.');
    expect(goesOn.stderr).toMatch(
      /t1\.lock is (a FIFO|a symbolic link), not a lock agent-team wrote \(planted in the repository\?\); it was removed/,
    );
    // Released at the end, like any lock of ours; /dev/zero itself is untouched.
    expect((await readdir(runsFolder())).filter((name) => name.endsWith('.lock'))).toEqual([]);
    expect((await lstat('/dev/zero')).isCharacterDevice()).toBe(true);
  });

  it('a folder as t1.lock: going on with t1 is refused (exit 2) naming it, and a new run is not', async () => {
    const first = await asUser(['run', '--agent', 'researcher', 'Where is main?']);
    expect(first.code, first.stderr).toBe(0);
    await mkdir(path.join(runsFolder(), 't1.lock'));
    const goesOn = await asUser(['run', '--continue', 't1', 'Anything else?']);
    expect(goesOn.code).toBe(2);
    expect(goesOn.stderr).toMatch(/t1\.lock is in the way of run t1's lock and could not be removed \(E\w+\); remove it, then try again/);
    const fresh = await asUser(['run', '--agent', 'researcher', 'And now?']);
    expect(fresh.code, fresh.stderr).toBe(0);
  });

  it('a FIFO as the lock of the first run of a fresh folder does not hang it', async () => {
    await asUser(['runs']);
    execFileSync('mkdir', ['-p', runsFolder()]);
    execFileSync('mkfifo', [path.join(runsFolder(), 't1.lock')]);
    const run = await asUser(['run', '--agent', 'researcher', 'Where is main?']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('All fine.');
  });
});

describe('without a usable key', () => {
  it('a home where no key can be kept: said, the run goes on unsigned, and every run is foreign', async () => {
    world.server.respondWith(() => textTurn('All fine.'));
    const provider = providerEnvironment('openai', world.server.baseUrl);
    // A file where the home should be: no folder can be made under it (root could write into any folder).
    const noHome = path.join(userHome, 'not-a-folder');
    await writeFile(noHome, '');
    const cli = (args: string[]) =>
      startCli(world.cliPath, [...args, '--workspace', world.workspace], { ...provider.env, HOME: noHome }).exited;
    const run = await cli(['run', '--agent', 'researcher', ...provider.args, 'Where is main?']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /the key that signs run logs \(.*run-log\.key\) cannot be used: .*Runs are written unsigned, and every run is treated as foreign/,
    );
    const listed = await cli(['runs', '--json']);
    expect(JSON.parse(listed.stdout.trim()) as unknown).toMatchObject({
      runId: 't1',
      foreign: true,
      foreignReason: expect.stringContaining('run logs cannot be checked'),
    });
  });
});

describe('a planted run file', () => {
  it('a FIFO as the index or as a run log hangs neither a run nor the listing', async () => {
    const first = await asUser(['run', '--agent', 'researcher', 'Where is main?']);
    expect(first.code, first.stderr).toBe(0);
    await rm(path.join(runsFolder(), 't1.jsonl'));
    execFileSync('mkfifo', [path.join(runsFolder(), 't1.jsonl')]);
    const listed = await asUser(['runs']);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain('t1.jsonl is not a regular file');
    await rm(path.join(runsFolder(), 'index.jsonl'));
    execFileSync('mkfifo', [path.join(runsFolder(), 'index.jsonl')]);
    const run = await asUser(['run', '--agent', 'researcher', 'And now?'], 'Still fine.');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Still fine.');
    expect(run.stderr).toContain('index.jsonl is not a regular file');
  });
});

describe('a planted run', () => {
  /** The attacker's own run (their home, their key), left in the repository the user opens. */
  async function plantedRun(): Promise<string> {
    return runRefactorer(world, { environment: { HOME: attackerHome } });
  }

  it('is listed as foreign, as text and as JSON', async () => {
    const runId = await plantedRun();
    const text = await asUser(['runs']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `    foreign: its run log's signature does not verify (changed after it was written, copied from another folder, or written by another user); not resumed or applied without --force`,
    );
    const json = await asUser(['runs', '--json']);
    expect(JSON.parse(json.stdout.trim()) as unknown).toMatchObject({
      runId,
      foreign: true,
      foreignReason: expect.stringContaining('does not verify'),
    });
  });

  it('is not applied without --force (exit 2, naming it), and is with it', async () => {
    const runId = await plantedRun();
    for (const args of [
      ['apply', runId],
      ['apply', runId, '--branch', 'planted'],
    ]) {
      const refused = await asUser(args);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`Run ${runId} is foreign`);
      expect(refused.stderr).toContain('--force');
    }
    expect(await readFile(path.join(world.workspace, 'math.ts'), 'utf8')).toBe(originalMath);
    const forced = await asUser(['apply', runId, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('Applying it anyway (--force)');
    expect(await readFile(path.join(world.workspace, 'math.ts'), 'utf8')).toBe(expectedMath);
  });

  it('is neither resumed nor continued without --force (exit 2), and is continued with it', async () => {
    const runId = await plantedRun();
    const resumed = await asUser(['run', '--resume', runId]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(`Run ${runId} is foreign`);
    const continued = await asUser(['run', '--continue', runId, 'Go on']);
    expect(continued.code).toBe(2);
    expect(continued.stderr).toMatch(/is foreign: .*If you know where it came from, run again with --force/);
    expect(world.server.requests.filter((request) => request.lastMessageText.includes('Go on'))).toEqual([]);
    const forced = await asUser(['run', '--continue', runId, '--force', 'Go on'], 'Went on.');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('Went on.');
  });

  it('written by hand, or before run logs were signed (no MAC at all), is foreign and says so', async () => {
    const runId = await runRefactorer(world, { environment: { HOME: userHome } });
    const file = path.join(runsFolder(), `${runId}.jsonl`);
    const unsigned = (await readFile(file, 'utf8')).replace(/,"mac":"[A-Za-z0-9_-]{43}"\}$/gm, '}');
    await writeFile(file, unsigned);
    const text = await asUser(['runs']);
    expect(text.stdout).toContain('foreign: its run log is not signed (written before run logs were signed, or not by you)');
    const refused = await asUser(['apply', runId]);
    expect(refused.code).toBe(2);
  });

  it('a genuine run is not foreign: listed plainly, applied without --force', async () => {
    const runId = await runRefactorer(world, { environment: { HOME: userHome } });
    const json = await asUser(['runs', '--json']);
    expect(JSON.parse(json.stdout.trim()) as unknown).toMatchObject({ runId, foreign: false });
    expect((await asUser(['runs'])).stdout).not.toContain('foreign');
    const applied = await asUser(['apply', runId]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toBe('');
    expect(await readFile(path.join(world.workspace, 'math.ts'), 'utf8')).toBe(expectedMath);
  });
});
