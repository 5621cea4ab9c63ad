/**
 * `agent-team apply <runId> --branch <name>` with real git in temporary repositories: the branch holds
 * exactly the run's proposals, and the user's HEAD, branch, index and working tree are as they were
 * (dirty ones included); a detached HEAD branches from its commit; refusals (a name that exists or is
 * invalid, not a repository, no git identity) are exit 2 and change nothing; a file changed at HEAD since
 * the proposal is a conflict (exit 1, no branch); with a signed-in `gh` (a stand-in) the branch is pushed
 * to origin and a pull request opened with the run's trace; without gh, the commands are printed; without
 * a remote, no push command but how to look at and merge the branch here.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';
import { addOrigin, checkoutState, git, type GitWorld, initRepository, installGhStandIn, makeGitWorld } from '../support/git-repository.js';
import { expectedMath, expectedReadme, originalMath, originalReadme, runRefactorer } from './refactorer-run.js';

const world = useCliWorld({ 'math.ts': originalMath, 'README.md': originalReadme });
let gitWorld: GitWorld;
beforeEach(async () => {
  gitWorld = await makeGitWorld();
});
afterEach(async () => {
  await gitWorld.dispose();
});

const apply = (runId: string, ...args: string[]) =>
  startCli(world.cliPath, ['apply', runId, '--workspace', world.workspace, ...args], gitWorld.environment).exited;
const branches = () => git(world.workspace, ['branch', '--list', '--format=%(refname:short)'], gitWorld).trim().split('\n');

async function repositoryWithRun(options: { identity?: boolean } = {}): Promise<string> {
  initRepository(world.workspace, gitWorld, options);
  return runRefactorer(world, { environment: gitWorld.environment });
}

describe('agent-team apply --branch', () => {
  it('commits exactly the proposals on a new branch and leaves the checkout as it was (a dirty one too)', async () => {
    const runId = await repositoryWithRun();
    await writeFile(path.join(world.workspace, 'notes.txt'), 'untracked\n');
    await writeFile(path.join(world.workspace, 'README.md'), '# Math (edited, not committed)\n');
    git(world.workspace, ['add', 'README.md'], gitWorld);
    await writeFile(path.join(world.workspace, 'README.md'), '# Math (edited again)\n');
    const before = checkoutState(world.workspace, gitWorld);
    const { code, stdout, stderr } = await apply(runId, '--branch', 'agent-team/rename');
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('Made branch agent-team/rename');
    expect(stdout).toContain('Your uncommitted changes are not in the branch');
    expect(checkoutState(world.workspace, gitWorld)).toEqual(before);
    expect(git(world.workspace, ['diff', '--name-only', 'main..agent-team/rename'], gitWorld).trim().split('\n')).toEqual([
      'README.md',
      'math.ts',
    ]);
    expect(git(world.workspace, ['show', 'agent-team/rename:math.ts'], gitWorld)).toBe(expectedMath);
    expect(git(world.workspace, ['show', 'agent-team/rename:README.md'], gitWorld)).toBe(expectedReadme);
    const message = git(world.workspace, ['log', '-1', '--format=%s%n%b%n%an <%ae>', 'agent-team/rename'], gitWorld);
    expect(message).toMatch(/^Rename add to sum\n/);
    expect(message).toContain('  - math.ts (+1 -1)');
    expect(message).toContain('Test User <test@example.com>');
    expect(git(world.workspace, ['rev-parse', 'agent-team/rename^'], gitWorld)).toBe(before.head);
    // No remote: nothing to push to, so no push command; what to do with the branch here instead.
    expect(stdout).toContain('The branch is only in this repository (it has no remote, so nothing was pushed)');
    expect(stdout).toContain('  git merge agent-team/rename');
    expect(stdout).toContain('add the remote first (git remote add <name> <url>)');
    expect(stdout).not.toContain('git push');
  });

  it('without gh, prints the push to the repository’s remote and the pull request command', async () => {
    const runId = await repositoryWithRun();
    await addOrigin(world.workspace, gitWorld);
    const { code, stdout, stderr } = await apply(runId, '--branch', 'agent-team/by-hand');
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('not done here: gh (GitHub CLI) is not installed');
    expect(stdout).toContain('  git push -u origin agent-team/by-hand');
    expect(stdout).toMatch(/ {2}gh pr create --head agent-team\/by-hand --title 'Rename add to sum' --body-file \S+pull-request\.md/);
  });

  it('branches from the commit a detached HEAD is on, and says so', async () => {
    const runId = await repositoryWithRun();
    git(world.workspace, ['checkout', '--quiet', '--detach'], gitWorld);
    const before = checkoutState(world.workspace, gitWorld);
    const { code, stdout } = await apply(runId, '--branch', 'from-detached');
    expect(code).toBe(0);
    expect(stdout).toContain('HEAD is detached: the branch starts from the commit you are on');
    expect(checkoutState(world.workspace, gitWorld)).toEqual(before);
    expect(git(world.workspace, ['rev-parse', 'from-detached^'], gitWorld)).toBe(before.head);
  });

  it('refuses a branch that exists, an invalid name, a folder that is not a repository, no identity (exit 2, nothing changed)', async () => {
    const runId = await runRefactorer(world, { environment: gitWorld.environment });
    const outside = await apply(runId, '--branch', 'x');
    expect(outside.code).toBe(2);
    expect(outside.stdout).toContain('is not in a git repository');
    initRepository(world.workspace, gitWorld);
    git(world.workspace, ['branch', 'taken'], gitWorld);
    const before = checkoutState(world.workspace, gitWorld);
    const exists = await apply(runId, '--branch', 'taken');
    expect(exists.code).toBe(2);
    expect(exists.stdout).toContain('A branch named "taken" already exists');
    const invalid = await apply(runId, '--branch', 'bad..name');
    expect(invalid.code).toBe(2);
    expect(invalid.stdout).toContain('"bad..name" is not a valid branch name');
    git(world.workspace, ['config', '--unset', 'user.name'], gitWorld);
    const anonymous = await apply(runId, '--branch', 'nobody');
    expect(anonymous.code).toBe(2);
    expect(anonymous.stdout).toContain('git config --global user.name');
    expect(branches().sort()).toEqual(['main', 'taken']);
    expect(checkoutState(world.workspace, gitWorld)).toEqual(before);
  });

  it('reports a file changed at HEAD since the proposal as a conflict: no branch (exit 1)', async () => {
    const runId = await repositoryWithRun();
    await writeFile(path.join(world.workspace, 'math.ts'), `// a later commit\n${originalMath}`);
    git(world.workspace, ['-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '--quiet', '-am', 'Later'], gitWorld);
    const { code, stdout } = await apply(runId, '--branch', 'conflicted');
    expect(code).toBe(1);
    expect(stdout).toContain('conflict: math.ts at main');
    expect(stdout).toContain('No branch was made');
    expect(branches()).toEqual(['main']);
    expect(git(world.workspace, ['worktree', 'list'], gitWorld).trim().split('\n')).toHaveLength(1);
  });

  it('pushes to origin and opens a pull request with gh, the run’s trace as its body', async () => {
    const runId = await repositoryWithRun();
    const origin = await addOrigin(world.workspace, gitWorld);
    const gh = await installGhStandIn(gitWorld);
    const { code, stdout, stderr } = await apply(runId, '--branch', 'agent-team/pr');
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('Pull request: https://github.com/example/project/pull/7');
    expect(git(origin, ['rev-parse', 'agent-team/pr'], gitWorld)).toBe(git(world.workspace, ['rev-parse', 'agent-team/pr'], gitWorld));
    const calls = await gh.calls();
    expect(calls[0]).toEqual(['auth', 'status']);
    expect(calls[1]?.slice(0, 6)).toEqual(['pr', 'create', '--head', 'agent-team/pr', '--title', 'Rename add to sum']);
    expect(calls[1]?.[6]).toBe('--body-file');
    const body = await gh.body();
    expect(body).toContain('Rename add to sum');
    expect(body).toContain('+export function sum(a: number, b: number) {');
  });
});
