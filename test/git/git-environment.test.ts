/**
 * The one git runner (src/engine/git/git-process.ts) runs git on the environment its caller hands in and
 * never on this process's: a variable set only in `process.env` (poisoned here) must not reach git, through
 * either door (the scratch copies' `createGitRunner`, apply-to-branch's `nodeProgramRunner`). A fake `git`
 * on the injected PATH writes the environment it was given to a file.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../src/engine/commands/git-runner.js';
import { nodeProgramRunner } from '../../src/engine/git/program-runner.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';

let folder: string;
/** Where git runs: apart from the fake's folder, which the engine would not take programs from. */
let work: string;
let seen: string;
let injected: Record<string, string>;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'agent-team-git-environment-'));
  seen = path.join(folder, 'seen.txt');
  const bin = path.join(folder, 'bin');
  work = path.join(folder, 'work');
  await mkdir(bin);
  await mkdir(work);
  // `config` (the neutral settings' listing) answers "nothing matched"; anything else succeeds.
  await writeFile(path.join(bin, 'git'), `#!/bin/sh\nenv >> "$SEEN_FILE"\ncase "$1" in config) exit 1;; esac\nexit 0\n`);
  await chmod(path.join(bin, 'git'), 0o755);
  process.env.AGENT_TEAM_POISON = 'from-process-env';
  injected = { PATH: `${bin}:/usr/bin:/bin`, SEEN_FILE: seen, HOST_ONLY: 'from-the-host', GIT_DIR: '/elsewhere' };
});

afterEach(async () => {
  delete process.env.AGENT_TEAM_POISON;
  await rm(folder, { recursive: true, force: true });
});

async function environmentSeen(): Promise<string> {
  return readFile(seen, 'utf8');
}

describe('the git runner on the injected environment', () => {
  it.skipIf(process.platform === 'win32')(
    'scratch copies: git sees the host environment, never process.env, and no GIT_DIR of the host',
    async () => {
      await createGitRunner(injected).git(['status'], { cwd: work, environment: { GIT_WORK_TREE: work } });
      const environment = await environmentSeen();
      expect(environment).toContain('HOST_ONLY=from-the-host');
      expect(environment).toContain(`GIT_WORK_TREE=${work}`);
      expect(environment).not.toContain('AGENT_TEAM_POISON');
      expect(environment).not.toContain('GIT_DIR=/elsewhere');
      expect(environment).toContain('GIT_TERMINAL_PROMPT=0');
    },
  );

  it.skipIf(process.platform === 'win32')('apply to a branch: git sees the host environment, never process.env', async () => {
    const result = await nodeProgramRunner(injected)('git', ['status'], { cwd: work });
    expect(result).toMatchObject({ exitCode: 0, notFound: false });
    const environment = await environmentSeen();
    expect(environment).toContain('HOST_ONLY=from-the-host');
    expect(environment).not.toContain('AGENT_TEAM_POISON');
    expect(environment).not.toContain('GIT_DIR=/elsewhere');
  });

  it.skipIf(process.platform === 'win32')('a program that does not end is killed at its timeout, on the injected clock', async () => {
    const hanging = path.join(folder, 'bin', 'git');
    await writeFile(hanging, '#!/bin/sh\nexec sleep 600\n');
    const clock = new ManualClock();
    const result = nodeProgramRunner(injected, clock)('git', ['push'], { cwd: work, timeoutMs: 5_000 });
    await clock.advance(5_000);
    expect(await result).toMatchObject({ exitCode: null, notFound: false });
    expect((await result).stderr).toContain('git push did not finish in 5 s and was stopped');
  });

  it('a program not on the injected PATH is reported as not installed', async () => {
    const result = await nodeProgramRunner({ PATH: path.join(folder, 'nowhere') })('gh', ['--version'], { cwd: work });
    expect(result).toMatchObject({ exitCode: null, notFound: true });
    expect(result.stderr).toContain('gh is not installed');
  });
});
