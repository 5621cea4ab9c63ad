/**
 * Agent Team: Apply to Branch… with a real git repository as the workspace folder: the run's proposals
 * of completed tasks, less the hunks the user rejected, committed on a new branch whose name the input
 * box offers; the user's checkout unchanged; with a signed-in `gh` (a stand-in on PATH) the branch is
 * pushed and the notification gives the pull request; without gh the commands go to the output.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { addOrigin, checkoutState, git, type GitWorld, initRepository, installGhStandIn, makeGitWorld } from '../support/git-repository.js';
import type { ChecksVerdictDetail } from '../../src/engine/checks/types.js';
import { EngineSession } from '../../src/extension/engine-session.js';
import { fake } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const world = useExtensionWorld({ files: { 'a.ts': 'const a = 1;\n', 'b.ts': 'const b = 1;\n' } });
let gitWorld: GitWorld;
beforeEach(async () => {
  gitWorld = await makeGitWorld();
  initRepository(world.extension.root, gitWorld);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await gitWorld.dispose();
});

/** A refactorer edits a.ts and b.ts; the user rejects b.ts's edit. Returns the run's id. */
async function runWithOneRejection(): Promise<string> {
  world.server.enqueue(
    toolCallTurn([
      { name: 'Edit', input: { file_path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' } },
      { name: 'Edit', input: { file_path: 'b.ts', old_string: 'b = 1', new_string: 'b = 2' } },
    ]),
    textTurn('Changed both.'),
  );
  const rootId = (await world.extension.execute('agentTeam.delegate', 'Change a and b', { role: 'refactorer' })) as string;
  await world.extension.host.taskManager.wait(rootId);
  world.extension.host.changes.get(rootId)!.reject({ path: 'b.ts' });
  // git and gh from the test's world only: no gh of this machine, no git configuration of its user.
  vi.stubEnv('PATH', gitWorld.bin);
  vi.stubEnv('HOME', gitWorld.home);
  vi.stubEnv('GIT_CONFIG_NOSYSTEM', '1');
  return rootId;
}

describe('Apply to Branch…', () => {
  it('commits the run’s kept proposals on the branch named in the input box, pushes it and opens a pull request with gh', async () => {
    const origin = await addOrigin(world.extension.root, gitWorld);
    const gh = await installGhStandIn(gitWorld);
    const runId = await runWithOneRejection();
    const before = checkoutState(world.extension.root, gitWorld);
    fake.state.inputBoxAnswers.push((options) => {
      expect(options.value).toBe(`agent-team/${runId}-change-a-and-b`);
      return 'agent-team/change-a';
    });
    await world.extension.execute('agentTeam.applyToBranch', runId);
    expect(checkoutState(world.extension.root, gitWorld)).toEqual(before);
    expect(git(world.extension.root, ['diff', '--name-only', 'main..agent-team/change-a'], gitWorld).trim()).toBe('a.ts');
    expect(git(world.extension.root, ['show', 'agent-team/change-a:a.ts'], gitWorld)).toBe('const a = 2;\n');
    expect(git(origin, ['rev-parse', 'agent-team/change-a'], gitWorld)).toBe(
      git(world.extension.root, ['rev-parse', 'agent-team/change-a'], gitWorld),
    );
    expect((await gh.calls())[1]?.slice(0, 6)).toEqual(['pr', 'create', '--head', 'agent-team/change-a', '--title', 'Change a and b']);
    expect(await gh.body()).toContain('+const a = 2;');
    expect(fake.state.messages.at(-1)?.message).toBe(
      'Made branch agent-team/change-a and opened a pull request: https://github.com/example/project/pull/7',
    );
  });

  it('without gh, makes the branch and puts the commands to open a pull request in the output', async () => {
    const runId = await runWithOneRejection();
    await addOrigin(world.extension.root, gitWorld);
    fake.state.inputBoxAnswers.push(() => 'by-hand');
    await world.extension.execute('agentTeam.applyToBranch', runId);
    expect(git(world.extension.root, ['show', 'by-hand:a.ts'], gitWorld)).toBe('const a = 2;\n');
    expect(fake.state.messages.at(-1)?.message).toContain(
      'Made branch by-hand. No pull request was opened (gh (GitHub CLI) is not installed)',
    );
    await fake.waitForLog('git push -u origin by-hand');
  });

  it('without a remote, makes the branch and says to add one, with no push command', async () => {
    const runId = await runWithOneRejection();
    fake.state.inputBoxAnswers.push(() => 'local-only');
    await world.extension.execute('agentTeam.applyToBranch', runId);
    expect(git(world.extension.root, ['show', 'local-only:a.ts'], gitWorld)).toBe('const a = 2;\n');
    expect(fake.state.messages.at(-1)?.message).toBe(
      'Made branch local-only. The repository has no remote, so nothing was pushed: add one (git remote add) to open a pull request.',
    );
    await fake.waitForLog('git merge local-only');
  });

  it('offers the finished runs with proposals when given no run', async () => {
    const runId = await runWithOneRejection();
    fake.state.quickPickAnswers.push(({ items }) => {
      expect(items).toHaveLength(1);
      return items[0];
    });
    fake.state.inputBoxAnswers.push(() => 'picked');
    await world.extension.execute('agentTeam.applyToBranch');
    expect(fake.state.quickPicks.at(-1)?.items[0]?.label).toContain('Change a and b');
    expect(git(world.extension.root, ['log', '-1', '--format=%B', 'picked'], gitWorld)).toContain(`Agent Team run ${runId}`);
  });

  it('refuses a branch name that exists, and makes nothing', async () => {
    const runId = await runWithOneRejection();
    fake.state.inputBoxAnswers.push(() => 'main');
    await world.extension.execute('agentTeam.applyToBranch', runId);
    expect(fake.state.messages.at(-1)).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('A branch named "main" already exists'),
    });
    expect(git(world.extension.root, ['branch', '--list', '--format=%(refname:short)'], gitWorld).trim()).toBe('main');
  });

  it('asks about each file that needs approval, as the working-tree Apply does: commits the approved one, holds back the other', async () => {
    world.server.enqueue(
      toolCallTurn([
        { name: 'Edit', input: { file_path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' } },
        { name: 'Write', input: { file_path: '.vscode/settings.json', content: '{ "editor.tabSize": 2 }\n' } },
        { name: 'Write', input: { file_path: '.github/workflows/ci.yml', content: 'on: push\n' } },
      ]),
      textTurn('Changed a and configured.'),
    );
    const runId = (await world.extension.execute('agentTeam.delegate', 'Configure', { role: 'refactorer' })) as string;
    await world.extension.host.taskManager.wait(runId);
    vi.stubEnv('PATH', gitWorld.bin);
    vi.stubEnv('HOME', gitWorld.home);
    vi.stubEnv('GIT_CONFIG_NOSYSTEM', '1');
    fake.state.inputBoxAnswers.push(() => 'configured');
    const asked: string[] = [];
    const answer = (shown: { message: string; modal: boolean; items: string[] }) => {
      asked.push(shown.message);
      expect(shown.modal).toBe(true);
      return shown.message.includes('.vscode/settings.json') ? shown.items[0] : undefined;
    };
    fake.state.messageAnswers.push(answer, answer);
    await world.extension.execute('agentTeam.applyToBranch', runId);
    expect(asked).toEqual([
      'Commit the proposed change to .github/workflows/ci.yml on configured?',
      'Commit the proposed change to .vscode/settings.json on configured?',
    ]);
    expect(git(world.extension.root, ['diff', '--name-only', 'main..configured'], gitWorld).trim().split('\n')).toEqual([
      '.vscode/settings.json',
      'a.ts',
    ]);
    expect(fake.state.messages.some((shown) => shown.message === 'Not in branch configured (not approved): .github/workflows/ci.yml')).toBe(
      true,
    );
  });

  it("opens the pull request's body with the run's checks, as the review showed them", async () => {
    const gh = await installGhStandIn(gitWorld);
    await addOrigin(world.extension.root, gitWorld);
    const verdict: ChecksVerdictDetail = {
      runId: '',
      taskIds: [],
      changedFiles: ['a.ts'],
      hasNewFailures: true,
      summary: 'checks: 1 with new failures: npm test (1 new failure: a › is <two>)',
      results: [{ name: 'npm test', status: 'failed', passed: 4, failed: 1, newFailures: ['a › is <two>'], fixed: [], durationMs: 900 }],
    };
    // The engine's checks service (the checks-engine slice) answers at once with this verdict.
    vi.spyOn(EngineSession.prototype, 'checksService').mockReturnValue({
      discover: async () => ({
        checks: [{ name: 'npm test', command: 'npm test', source: 'package.json', sourceKind: 'package-json' }],
        skipped: [],
        fromChecksFile: false,
      }),
      runOnProposals: async (request) => ({ ...verdict, runId: request.runId, taskIds: request.taskIds }),
      rerun: async () => undefined,
      onVerdict: () => () => undefined,
    });
    const runId = await runWithOneRejection();
    await world.extension.clock.advance(1_000);
    await vi.waitFor(() => expect(world.extension.host.checks.get(runId)?.state).toBe('done'));
    fake.state.inputBoxAnswers.push(() => 'agent-team/checked');
    await world.extension.execute('agentTeam.applyToBranch', runId);
    const body = await gh.body();
    expect(body.startsWith('## Checks\n')).toBe(true);
    expect(body).toContain('| npm test | failed | 4 passed, 1 failed — 1 new failure: a › is \\<two\\> |');
    expect(body).not.toContain('Run before the last changes');
    vi.restoreAllMocks();
  });
});
