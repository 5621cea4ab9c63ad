/**
 * Planted runs as an ordinary user (CI and devcontainers run as root; people do not): a run another
 * account wrote into the repository (here root, with its own key) is foreign to the user who opens it,
 * while the user's own runs, signed with a key made 0600 in their own home, verify and apply as before.
 * Needs root to make the test user (useradd) and to become it (setpriv); skipped, saying so, otherwise.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, priorTurns, providerEnvironment } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';
import { expectedMath, originalMath, originalReadme, runRefactorer } from './refactorer-run.js';

const isRoot = process.getuid?.() === 0;
const userName = 'agentteam-runfiles';
const world = useCliWorld({ 'math.ts': originalMath, 'README.md': originalReadme });
let attackerHome: string;
let userHome: string;

/** The test user's uid and gid, made on first use. */
function testUser(): { uid: number; gid: number } {
  try {
    execFileSync('id', ['-u', userName], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--no-create-home', '--shell', '/usr/sbin/nologin', userName]);
  }
  return {
    uid: Number(execFileSync('id', ['-u', userName], { encoding: 'utf8' })),
    gid: Number(execFileSync('id', ['-g', userName], { encoding: 'utf8' })),
  };
}

beforeEach(async () => {
  attackerHome = await mkdtemp(path.join(tmpdir(), 'agent-team-attacker-'));
  userHome = await mkdtemp(path.join(tmpdir(), 'agent-team-user-'));
});

afterEach(async () => {
  await rm(attackerHome, { recursive: true, force: true });
  await rm(userHome, { recursive: true, force: true });
});

/** The CLI as the test user (setpriv), in their own home; resolves with the exit code and output. */
async function asUser(user: { uid: number; gid: number }, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const provider = providerEnvironment('openai', world.server.baseUrl);
  const setpriv = [
    '--reuid',
    String(user.uid),
    '--regid',
    String(user.gid),
    '--clear-groups',
    process.execPath,
    world.cliPath,
    ...args,
    '--workspace',
    world.workspace,
  ];
  const environment = { PATH: process.env.PATH ?? '', HOME: userHome, ...provider.env };
  return promisify(execFile)('setpriv', setpriv, { env: environment }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
}

describe.skipIf(!isRoot)('a planted run, as an ordinary user (needs root to make the user)', () => {
  it("is foreign to the user and not applied without --force; the user's own run verifies and applies", async () => {
    const user = testUser();
    const planted = await runRefactorer(world, { environment: { HOME: attackerHome } });
    // The checkout is the user's, as after a clone; the CLI bundle readable by anyone.
    execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, world.workspace, userHome]);
    await chmod(path.dirname(world.cliPath), 0o755);
    execFileSync('chmod', ['-R', 'a+rX', path.dirname(world.cliPath)]);

    const listed = await asUser(user, ['runs', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout.trim()) as unknown).toMatchObject({ runId: planted, foreign: true });
    const refused = await asUser(user, ['apply', planted]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Run ${planted} is foreign`);
    expect(await readFile(path.join(world.workspace, 'math.ts'), 'utf8')).toBe(originalMath);

    const key = path.join(userHome, '.agent-team', 'keys', 'run-log.key');
    expect((await stat(key)).uid).toBe(user.uid);
    expect((await stat(key)).mode & 0o777).toBe(0o600);
    // Beside the planted run, the user's own.
    const own = await runOwn(user);
    expect(own).not.toBe(planted);
    const appliedOwn = await asUser(user, ['apply', own]);
    expect(appliedOwn.code, appliedOwn.stderr).toBe(0);
    expect(await readFile(path.join(world.workspace, 'math.ts'), 'utf8')).toBe(expectedMath);
  });
});

/** The refactorer's run, as the user; its id. */
async function runOwn(user: { uid: number; gid: number }): Promise<string> {
  world.server.respondWith((request) => {
    if (agentOf(request) !== 'refactorer') throw new Error('unexpected agent');
    return priorTurns(request) === 0
      ? toolCallTurn([
          { name: 'Edit', input: { file_path: 'math.ts', old_string: 'export function add(', new_string: 'export function sum(' } },
        ])
      : textTurn('Renamed.');
  });
  const provider = providerEnvironment('openai', world.server.baseUrl);
  const run = await asUser(user, ['run', '--agent', 'refactorer', ...provider.args, 'Rename add to sum']);
  expect(run.code, run.stderr).toBe(0);
  const listed = await asUser(user, ['runs', '--json']);
  const [newest] = listed.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { runId: string; foreign: boolean });
  expect(newest?.foreign).toBe(false);
  return newest!.runId;
}
