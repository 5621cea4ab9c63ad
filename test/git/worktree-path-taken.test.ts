/**
 * Bad input at the worktree step, with real git: when git refuses the temporary worktree's folder as
 * taken, Apply to Branch refuses with that reason and leaves the repository exactly as it was (no branch,
 * no worktree entry, the checkout untouched).
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyToBranch } from '../../src/engine/git/apply-to-branch.js';
import { neutralProgramRunner } from '../../src/engine/git/neutral-program-runner.js';
import { nodeProgramRunner, type ProgramRunner } from '../../src/engine/git/program-runner.js';
import { git, type GitWorld, initRepository, makeGitWorld } from '../support/git-repository.js';

let world: GitWorld | undefined;
let repository: string | undefined;

afterEach(async () => {
  if (repository) await rm(repository, { recursive: true, force: true });
  await world?.dispose();
  world = undefined;
  repository = undefined;
});

describe('applyToBranch when the worktree folder is taken', () => {
  it('refuses with that reason and changes nothing', async () => {
    world = await makeGitWorld();
    repository = await mkdtemp(path.join(tmpdir(), 'agent-team-taken-'));
    writeFileSync(path.join(repository, 'a.ts'), 'const a = 1;\n');
    initRepository(repository, world);
    // git answers as it does when the folder it is asked to make a worktree in already exists.
    const runnerFor = (environment: NodeJS.ProcessEnv): ProgramRunner => {
      const real = nodeProgramRunner(environment);
      return async (program, args, options) =>
        program === 'git' && args[args.indexOf('worktree') + 1] === 'add'
          ? { exitCode: 128, stdout: '', stderr: `fatal: '${args.at(-2)}' already exists\n`, notFound: false }
          : real(program, args, options);
    };
    const neutral = await neutralProgramRunner(repository, {
      environment: { ...process.env, ...world.environment, PATH: process.env.PATH ?? '' },
      runnerFor,
    });
    const before = {
      head: git(repository, ['rev-parse', 'HEAD'], world),
      status: git(repository, ['status', '--porcelain'], world),
      branches: git(repository, ['branch', '--list'], world),
    };
    const result = await applyToBranch({
      workspace: repository,
      branch: 'agent-team/taken',
      files: [{ path: 'a.ts', taskId: 't2', baseContent: 'const a = 1;\n', content: 'const a = 2;\n', added: 1, removed: 1 }],
      run: {
        runId: 't1',
        description: 'Change a',
        prompt: 'Change a',
        agents: [{ taskId: 't2', role: 'refactorer', description: 'Change a' }],
      },
      git: neutral,
    });
    expect(result).toMatchObject({ outcome: 'refused', reason: 'worktree-path-taken' });
    expect((result as { message: string }).message).toContain('nothing was changed');
    expect({
      head: git(repository, ['rev-parse', 'HEAD'], world),
      status: git(repository, ['status', '--porcelain'], world),
      branches: git(repository, ['branch', '--list'], world),
    }).toEqual(before);
    expect(git(repository, ['worktree', 'list'], world).trim().split('\n')).toHaveLength(1);
  });
});
