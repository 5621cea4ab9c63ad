/**
 * The scratch copies' warm-up (B9): a task that may run commands starts the place's check and the overlay's
 * detection in the background, so that its first command, a model turn later, does not wait for them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandsCapability } from '../../src/engine/commands/commands-capability.js';
import type { CommandCopy } from '../../src/engine/commands/command-copy.js';
import type { CommandHost } from '../../src/engine/commands/command-host.js';
import { overlaySupport } from '../../src/engine/commands/overlay/overlay-support.js';
import { ScratchCopies } from '../../src/engine/commands/scratch-copies.js';
import { commitAll } from './bash-support.js';

let base: string;
let folder: string;
let scratch: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'agent-team-warm-up-test-'));
  folder = path.join(base, 'folder');
  scratch = path.join(base, 'scratch');
  await mkdir(folder);
  await writeFile(path.join(folder, 'a.txt'), 'a\n');
  execFileSync('git', ['init', '-q'], { cwd: folder });
  commitAll(folder);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** 'settled' when `promise` has already settled, else 'pending' (no clock: one microtask turn decides). */
async function state(promise: Promise<unknown>): Promise<'settled' | 'pending'> {
  const settled = promise.then(
    () => 'settled' as const,
    () => 'settled' as const,
  );
  return Promise.race([settled, Promise.resolve().then(() => 'pending' as const)]);
}

async function overlayHere(): Promise<boolean> {
  await mkdir(scratch, { recursive: true, mode: 0o700 });
  return (await overlaySupport(scratch)).available;
}

/** The copies in the scratch folder (each named for the pid that made it). */
async function copyFolders(): Promise<string[]> {
  return (await readdir(scratch)).filter((name) => /^\d+-/.test(name) && !name.includes('overlay-probe')).sort();
}

const run = (copy: CommandCopy, command: string) => {
  const launch = copy.launch({ file: 'bash', args: ['-c', command], environment: { PATH: process.env.PATH ?? '' } });
  return execFileSync(launch.file, launch.args, { cwd: copy.cwd, encoding: 'utf8', env: launch.environment });
};

/** The pid of the overlay holder whose view lies in `copyFolder`. */
function holderOf(copyFolder: string): number {
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    const words = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    if (words.includes('agent-team-overlay-holder') && words.includes(path.join(copyFolder, 'view')) && words[0] === '/bin/sh')
      return Number(name);
  }
  throw new Error(`no overlay holder for ${copyFolder}`);
}

/** Resolves once `pid` is gone (the holder is our child: node reaps it). */
async function waitForExit(pid: number): Promise<void> {
  while (isAlive(pid)) await new Promise((resolve) => setImmediate(resolve));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('ScratchCopies.warmUp', () => {
  it('checks the place and tries the overlay before the first copy is asked for, once', async () => {
    const trees = new ScratchCopies({ workspaceRoot: folder, directory: scratch });
    // A copy a crashed process left behind (pid 2^22 + 1 is above any pid Linux gives): removed by the warm-up.
    await mkdir(path.join(scratch, '4194305-overlay-leftover'), { recursive: true, mode: 0o700 });
    const warming = trees.warmUp();
    expect(trees.warmUp()).toBe(warming);
    await warming;
    expect(await readdir(scratch)).not.toContain('4194305-overlay-leftover');
    // The detection is done: the first command's copy finds it settled rather than starting it.
    expect(await state(overlaySupport(scratch))).toBe('settled');
    const copy = await trees.acquire('t1');
    expect(['overlay', 'git']).toContain(copy.kind);
    trees.release('t1', copy);
    await trees.dispose();
  });

  it('makes an overlay copy ahead, given to the first command as the workspace is then; the next warm-up makes another', async (context) => {
    if (!(await overlayHere())) return context.skip();
    const trees = new ScratchCopies({ workspaceRoot: folder, directory: scratch, kind: 'overlay' });
    await trees.warmUp();
    const ahead = await copyFolders();
    expect(ahead).toHaveLength(1);
    // The user ignores and makes a file after the warm-up: the first command must not see it.
    await writeFile(path.join(folder, '.gitignore'), 'secret.txt\n');
    await writeFile(path.join(folder, 'secret.txt'), 'token\n');
    const copy = await trees.acquire('t1');
    expect(await copyFolders()).toEqual(ahead);
    expect(copy.cwd.startsWith(path.join(scratch, ahead[0]!))).toBe(true);
    await copy.prepare([{ path: 'b.txt', content: 'proposed\n' }]);
    expect(run(copy, 'ls -A | grep -v "^.git$"; cat b.txt')).toBe('.gitignore\na.txt\nb.txt\nproposed\n');
    trees.release('t1', copy);
    const again = trees.warmUp();
    await again;
    expect(await copyFolders()).toHaveLength(2);
    await trees.dispose();
    expect(await copyFolders()).toEqual([]);
  });

  it('does not give a command a copy made ahead whose namespace has ended (as root): it makes a new one', async (context) => {
    if (!(await overlayHere()) || process.getuid?.() !== 0) return context.skip();
    const trees = new ScratchCopies({ workspaceRoot: folder, directory: scratch, kind: 'overlay' });
    await trees.warmUp();
    const [ahead] = await copyFolders();
    // The namespace kept for the copy (overlay-holder.ts), ended as a crash would end it.
    const holder = holderOf(path.join(scratch, ahead!));
    process.kill(holder, 'SIGKILL');
    await waitForExit(holder);
    const copy = await trees.acquire('t1');
    expect(copy.cwd.startsWith(path.join(scratch, ahead!))).toBe(false);
    await copy.prepare([]);
    expect(run(copy, 'cat a.txt')).toBe('a\n');
    trees.release('t1', copy);
    await trees.dispose();
  });

  it('makes nothing ahead where the overlay cannot serve the workspace (a linked worktree): the first command gets the git-made copy and says why', async (context) => {
    if (!(await overlayHere())) return context.skip();
    const worktree = path.join(base, 'worktree');
    execFileSync('git', ['worktree', 'add', '-q', worktree], { cwd: folder });
    const trees = new ScratchCopies({ workspaceRoot: worktree, directory: scratch });
    await trees.warmUp();
    expect(await copyFolders()).toEqual([]);
    const copy = await trees.acquire('t1');
    expect(copy.kind).toBe('git');
    expect(trees.overlayUnavailable).toContain('git directory outside its folder');
    trees.release('t1', copy);
    await trees.warmUp();
    expect(await copyFolders()).toHaveLength(1);
    await trees.dispose();
  });

  it('does nothing for the git-made copy, which has nothing to detect', async () => {
    const place = path.join(base, 'never-made');
    const trees = new ScratchCopies({ workspaceRoot: folder, directory: place, kind: 'git' });
    await trees.warmUp();
    expect(existsSync(place)).toBe(false);
    await trees.dispose();
  });

  it('never fails: a place that cannot be used is reported by the first acquire instead', async () => {
    const file = path.join(base, 'a-file');
    await writeFile(file, 'not a folder\n');
    const trees = new ScratchCopies({ workspaceRoot: folder, directory: path.join(file, 'scratch') });
    await expect(trees.warmUp()).resolves.toBeUndefined();
    await trees.dispose();
  });
});

describe('the commands capability', () => {
  it('warms the copies up when it grants Bash to a task, and not for a task without it', async () => {
    let warmUps = 0;
    const host = { copies: { warmUp: () => ((warmUps += 1), Promise.resolve()) } } as unknown as CommandHost;
    const capability = commandsCapability(host);
    const task = (tools: string[]) =>
      ({ taskId: 't', rootId: 'r', agent: { tools, role: 'coder' }, files: { proposals: [] }, context: {} }) as unknown as Parameters<
        typeof capability.grant
      >[0];
    capability.grant(task(['Read']));
    expect(warmUps).toBe(0);
    const grant = await capability.grant(task(['Bash']));
    expect(grant?.tools?.map((tool) => tool.name)).toEqual(['Bash']);
    expect(warmUps).toBe(1);
  });
});
