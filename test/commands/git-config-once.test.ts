/**
 * GitRunner.oneCreation (commands/git-runner.ts): the git one overlay copy's creation uses reads the
 * repository's configuration (to neutralise what it would run) once per folder and variables, not before
 * every call, and never hands one folder's reading to another. A logging `git` on the injected PATH (it
 * runs the real one) records every git started; the repository sets an fsmonitor, which each call must
 * still receive neutralised.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../src/engine/commands/git-runner.js';

let folder: string;
let repository: string;
let other: string;
let log: string;
let environment: Record<string, string>;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'agent-team-git-config-once-'));
  const bin = path.join(folder, 'bin');
  log = path.join(folder, 'log.txt');
  repository = path.join(folder, 'repository');
  other = path.join(folder, 'other');
  await mkdir(bin);
  await writeFile(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> "$GIT_LOG"\nexec /usr/bin/git "$@"\n`);
  await chmod(path.join(bin, 'git'), 0o755);
  for (const top of [repository, other]) {
    execFileSync('git', ['init', '-q', top]);
    // A hostile setting: the neutral configuration must still reach every call.
    execFileSync('git', ['-C', top, 'config', 'core.sshCommand', 'touch /tmp/agent-team-pwned #']);
  }
  environment = { PATH: `${bin}:/usr/bin:/bin`, GIT_LOG: log, HOME: folder };
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function calls(): Promise<string[]> {
  return (await readFile(log, 'utf8')).trim().split('\n');
}

const isConfigRead = (line: string) => line.includes('--show-scope');

describe('a git for one creation', () => {
  it('reads the configuration once for calls in the same folder, calls at the same time included', async () => {
    const git = createGitRunner(environment).oneCreation();
    await Promise.all([git(['rev-parse', '--show-toplevel'], { cwd: repository }), git(['ls-files', '-z'], { cwd: repository })]);
    await git(['status', '--porcelain'], { cwd: repository });
    const logged = await calls();
    expect(logged.filter(isConfigRead)).toHaveLength(1);
    // Each call still carries the repository's ssh command reset.
    const runs = logged.filter((line) => !isConfigRead(line));
    expect(runs).toHaveLength(3);
    for (const line of runs) expect(line).toContain('core.sshcommand=ssh');
  });

  it('reads it again for another folder or other variables, and the host runner reads it before every call', async () => {
    const runner = createGitRunner(environment);
    const git = runner.oneCreation();
    await git(['status'], { cwd: repository });
    await git(['status'], { cwd: other });
    await git(['status'], { cwd: repository, environment: { GIT_DIR: path.join(other, '.git') } });
    expect((await calls()).filter(isConfigRead)).toHaveLength(3);
    await writeFile(log, '');
    await runner.git(['status'], { cwd: repository });
    await runner.git(['status'], { cwd: repository });
    expect((await calls()).filter(isConfigRead)).toHaveLength(2);
  });

  it('a new creation reads a configuration changed since the last one', async () => {
    const runner = createGitRunner(environment);
    await runner.oneCreation()(['status'], { cwd: repository });
    execFileSync('git', ['-C', repository, 'config', 'core.askPass', 'touch /tmp/agent-team-pwned']);
    await writeFile(log, '');
    await runner.oneCreation()(['status'], { cwd: repository });
    const run = (await calls()).find((line) => !isConfigRead(line)) ?? '';
    expect(run).toContain('core.askpass=');
    expect(run).toContain('core.sshcommand=ssh');
  });
});
