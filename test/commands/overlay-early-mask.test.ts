/**
 * An overlay copy of a workspace at its repository's top has its mask built while rev-parse confirms the
 * top (overlay-copy.ts): that early mask is used only when rev-parse agrees. A workspace with a `.git`
 * folder that is not its repository's (an empty one: git finds the repository above) gets the mask of
 * the repository rev-parse found; the copy is made with the git of one creation (GitRunner.oneCreation),
 * as ScratchCopies makes it.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandCopy } from '../../src/engine/commands/command-copy.js';
import { createGitRunner } from '../../src/engine/commands/git-runner.js';
import { OverlayCopy } from '../../src/engine/commands/overlay/overlay-copy.js';
import { overlaySupport } from '../../src/engine/commands/overlay/overlay-support.js';
import { commitAll } from './bash-support.js';

let base: string;
let repository: string;
let scratch: string;
const copies: CommandCopy[] = [];

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'agent-team-early-mask-'));
  repository = path.join(base, 'repository');
  scratch = path.join(base, 'scratch');
  await mkdir(path.join(repository, 'sub', 'deep'), { recursive: true });
  await mkdir(scratch, { mode: 0o700 });
  await writeFile(path.join(repository, '.gitignore'), '.env\n');
  await writeFile(path.join(repository, 'sub', 'a.txt'), 'a\n');
  await writeFile(path.join(repository, 'sub', 'deep', 'b.txt'), 'b\n');
  execFileSync('git', ['init', '-q', repository]);
  commitAll(repository);
  await writeFile(path.join(repository, '.env'), 'TOKEN=top\n');
  await writeFile(path.join(repository, 'sub', '.env'), 'TOKEN=sub\n');
  await writeFile(path.join(repository, 'sub', 'deep', '.env'), 'TOKEN=deep\n');
});

afterEach(async () => {
  for (const copy of copies.splice(0)) await copy.remove();
  await rm(base, { recursive: true, force: true });
});

async function overlayOf(workspace: string): Promise<CommandCopy> {
  const support = await overlaySupport(scratch);
  if (!support.available) throw new Error(`no overlay here: ${support.reason}`);
  const runner = createGitRunner(process.env);
  const copy = await OverlayCopy.create(workspace, scratch, support.tools, runner.git, runner.oneCreation());
  copies.push(copy);
  await copy.prepare([]);
  return copy;
}

const list = (copy: CommandCopy) => {
  const launch = copy.launch({ file: 'bash', args: ['-c', 'ls -A . deep'], environment: { PATH: process.env.PATH ?? '', HOME: base } });
  return execFileSync(launch.file, launch.args, { cwd: copy.cwd, encoding: 'utf8', env: launch.environment });
};

describe('the mask built while rev-parse runs', () => {
  it('at the top: the ignored files are hidden, the tracked ones shown', async () => {
    const copy = await overlayOf(repository);
    const launch = copy.launch({
      file: 'bash',
      args: ['-c', 'ls -A . sub sub/deep'],
      environment: { PATH: process.env.PATH ?? '', HOME: base },
    });
    const listing = execFileSync(launch.file, launch.args, { cwd: copy.cwd, encoding: 'utf8', env: launch.environment });
    expect(listing).not.toContain('.env');
    expect(listing).toMatch(/a\.txt[^]*b\.txt/);
  });

  it('a workspace whose `.git` folder is not its repository’s gets the mask of the repository git found', async () => {
    // Empty: no repository of its own, so git finds the one above; a mask built for `sub` alone would
    // list `.env` relative to it and hide the top's, not `sub/.env`.
    await mkdir(path.join(repository, 'sub', '.git'));
    const copy = await overlayOf(path.join(repository, 'sub'));
    const listing = list(copy);
    expect(listing).toMatch(/a\.txt[^]*b\.txt/);
    expect(listing).not.toContain('.env');
  });
});
