/**
 * `agent-team apply <runId> --branch` with two refactorers' proposals for one file, with real git: edits
 * of different functions are both committed (the later merged onto the earlier, as the working-tree apply
 * does); edits of the same lines are a conflict and no branch is made.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';
import { git, type GitWorld, initRepository, makeGitWorld } from '../support/git-repository.js';
import { both, original, scriptRefactorers } from './two-refactorers.js';

const world = useCliWorld({ 'shapes.ts': original });
let gitWorld: GitWorld;
beforeEach(async () => {
  gitWorld = await makeGitWorld();
});
afterEach(async () => {
  await gitWorld.dispose();
});

async function runWithProposals(second: 'omega' | 'alphaToo'): Promise<{ runId: string; environment: Record<string, string> }> {
  initRepository(world.workspace, gitWorld);
  scriptRefactorers(world, 'alpha', second);
  const provider = providerEnvironment('openai', world.server.baseUrl);
  const environment = { ...gitWorld.environment, ...provider.env };
  const run = await startCli(world.cliPath, ['run', '--workspace', world.workspace, ...provider.args, 'Refactor shapes.ts'], environment)
    .exited;
  expect(run.code, run.stderr).toBe(0);
  const listed = await startCli(world.cliPath, ['runs', '--json', '--workspace', world.workspace], environment).exited;
  return { runId: (JSON.parse(listed.stdout.split('\n')[0]!) as { runId: string }).runId, environment };
}

describe('agent-team apply --branch with two tasks editing one file', () => {
  it('commits both edits of different functions', async () => {
    const { runId, environment } = await runWithProposals('omega');
    const applied = await startCli(
      world.cliPath,
      ['apply', runId, '--workspace', world.workspace, '--branch', 'agent-team/both'],
      environment,
    ).exited;
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(git(world.workspace, ['show', 'agent-team/both:shapes.ts'], gitWorld)).toBe(both);
  });

  it('makes no branch when both changed the same lines, and says how to settle it', async () => {
    const { runId, environment } = await runWithProposals('alphaToo');
    const applied = await startCli(
      world.cliPath,
      ['apply', runId, '--workspace', world.workspace, '--branch', 'agent-team/both'],
      environment,
    ).exited;
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain(
      'shapes.ts: lines 1–5 were changed by task t3 and by an earlier task of the run; nothing was committed.',
    );
    expect(git(world.workspace, ['branch', '--list', 'agent-team/both'], gitWorld).trim()).toBe('');
  });
});
