/**
 * `agent-team apply <runId> --branch <name>` against a hostile repository, with real git, through the CLI:
 * the files a working-tree apply holds back for approval (a git hook, a workflow, editor settings, a
 * manifest's install script) are held back from the branch the same way and said so; the repository's
 * hooks (`core.hooksPath`), fsmonitor, filters, signing program, ssh command, credential helper, askpass
 * and pager run nowhere, on the commit, the push, nor in the git `gh pr create` runs itself; a run file naming `../x` (the workspace a
 * subfolder of the repository) or `.git/…` is refused with nothing committed or written; a branch name
 * that is not a plain new branch (`refs/heads/main`, `HEAD`) is a usage error.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { addOrigin, checkoutState, git, type GitWorld, initRepository, installGhStandIn, makeGitWorld } from '../support/git-repository.js';
import { agentOf, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { type CliWorld, useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'math.ts': 'export const one = 1;\n', 'package.json': '{\n  "name": "demo"\n}\n' });
let gitWorld: GitWorld;
beforeEach(async () => {
  gitWorld = await makeGitWorld();
});
afterEach(async () => {
  await gitWorld.dispose();
});

type Proposal = { name: 'Edit' | 'Write'; input: Record<string, string> };

/** A refactorer run in `workspace` proposing `proposals`; returns its run id. */
async function runProposals(cli: CliWorld, workspace: string, proposals: Proposal[]): Promise<string> {
  cli.server.respondWith((request) => {
    if (agentOf(request) !== 'refactorer') throw new Error('unexpected agent');
    return priorTurns(request) === 0 ? toolCallTurn(proposals) : textTurn('Done.');
  });
  const provider = providerEnvironment('openai', cli.server.baseUrl);
  const environment = { ...provider.env, ...gitWorld.environment };
  const run = await startCli(
    cli.cliPath,
    ['run', '--agent', 'refactorer', '--workspace', workspace, ...provider.args, 'Tidy up'],
    environment,
  ).exited;
  expect(run.code, run.stderr).toBe(0);
  const listed = await startCli(cli.cliPath, ['runs', '--json', '--workspace', workspace], environment).exited;
  return (JSON.parse(listed.stdout.split('\n')[0]!) as { runId: string }).runId;
}

const apply = (workspace: string, runId: string, ...args: string[]) =>
  startCli(world.cliPath, ['apply', runId, '--workspace', workspace, ...args], gitWorld.environment).exited;
const branches = () => git(world.workspace, ['branch', '--list', '--format=%(refname:short)'], gitWorld).trim().split('\n');

const configurationProposals: Proposal[] = [
  { name: 'Edit', input: { file_path: 'math.ts', old_string: 'one = 1', new_string: 'one = 1.0' } },
  { name: 'Write', input: { file_path: '.githooks/pre-commit', content: '#!/bin/sh\ntouch /tmp/owned\n' } },
  { name: 'Write', input: { file_path: '.github/workflows/ci.yml', content: 'on: push\njobs: {}\n' } },
  { name: 'Write', input: { file_path: '.vscode/settings.json', content: '{ "agentTeam.allowedCommands": ["*"] }\n' } },
  {
    name: 'Write',
    input: { file_path: 'package.json', content: '{\n  "name": "demo",\n  "scripts": { "postinstall": "node steal.js" }\n}\n' },
  },
];

describe('agent-team apply --branch holds back what apply holds back', () => {
  it('commits the plain edit only, and lists the hook, the workflow, the editor settings and the install script as apply does (exit 1)', async () => {
    initRepository(world.workspace, gitWorld);
    const runId = await runProposals(world, world.workspace, configurationProposals);
    const { code, stdout } = await apply(world.workspace, runId, '--branch', 'agent-team/tidy');
    expect(stdout).toContain(
      'needs-approval: .githooks/pre-commit — .githooks/pre-commit needs explicit approval (it is configuration that can run code or change permissions)',
    );
    expect(stdout).toContain('needs-approval: .github/workflows/ci.yml — .github/workflows/ci.yml needs explicit approval');
    expect(stdout).toContain('needs-approval: .vscode/settings.json — .vscode/settings.json needs explicit approval');
    expect(stdout).toContain('needs-approval: package.json — package.json needs explicit approval (the edit changes "scripts"');
    expect(stdout).toContain('To include one, read its change');
    expect(stdout).toContain('Made branch agent-team/tidy');
    expect(git(world.workspace, ['diff', '--name-only', 'main..agent-team/tidy'], gitWorld).trim()).toBe('math.ts');
    expect(code).toBe(1);
  });

  it('makes no branch when every proposal needs approval', async () => {
    initRepository(world.workspace, gitWorld);
    const runId = await runProposals(world, world.workspace, configurationProposals.slice(1, 2));
    const { code, stdout } = await apply(world.workspace, runId, '--branch', 'agent-team/hook');
    expect(stdout).toContain('needs-approval: .githooks/pre-commit');
    expect(stdout).toContain('No branch was made: every proposed change needs your explicit approval (.githooks/pre-commit)');
    expect(branches()).toEqual(['main']);
    expect(code).toBe(1);
  });
});

describe('agent-team apply --branch runs none of the repository’s programs', () => {
  it('with hooks, fsmonitor, a filter, signing, ssh, credential and askpass set by the repository: no marker, branch made and pushed', async () => {
    const marker = path.join(gitWorld.home, 'marker');
    const record = path.join(gitWorld.home, 'record.sh');
    await writeFile(record, `#!/bin/sh\necho "$0 $*" >> '${marker}'\nexit 0\n`);
    await chmod(record, 0o755);
    // Committed hooks, as a repository with core.hooksPath=.githooks has them.
    await mkdir(path.join(world.workspace, '.githooks'));
    for (const hook of ['pre-commit', 'commit-msg', 'post-commit', 'post-checkout', 'reference-transaction', 'pre-push', 'pre-auto-gc']) {
      await writeFile(path.join(world.workspace, '.githooks', hook), `#!/bin/sh\necho "hook ${hook}" >> '${marker}'\n`);
      await chmod(path.join(world.workspace, '.githooks', hook), 0o755);
    }
    await writeFile(path.join(world.workspace, '.gitattributes'), '*.ts filter=owned diff=owned\n');
    initRepository(world.workspace, gitWorld);
    const origin = await addOrigin(world.workspace, gitWorld);
    const gh = await installGhStandIn(gitWorld, { runsGitStatus: true });
    const runId = await runProposals(world, world.workspace, configurationProposals.slice(0, 1));
    const settings: Array<[string, string]> = [
      ['core.hooksPath', '.githooks'],
      ['core.fsmonitor', record],
      ['filter.owned.clean', `sh -c 'echo clean >> "${marker}"; cat'`],
      ['filter.owned.smudge', `sh -c 'echo smudge >> "${marker}"; cat'`],
      ['filter.owned.process', record],
      ['filter.owned.required', 'true'],
      ['diff.external', record],
      ['diff.owned.textconv', record],
      ['commit.gpgSign', 'true'],
      ['gpg.program', record],
      ['core.sshCommand', record],
      ['credential.helper', record],
      ['core.askPass', record],
      ['core.pager', record],
      ['core.editor', record],
      // A push to a folder starts this command here, with the user's rights.
      ['remote.origin.receivepack', record],
    ];
    for (const [key, value] of settings) git(world.workspace, ['config', key, value], gitWorld);
    const { code, stdout, stderr } = await apply(world.workspace, runId, '--branch', 'agent-team/quiet');
    // Read before any git call of the test's own, which would run them.
    const ran = existsSync(marker) ? await readFile(marker, 'utf8') : '';
    expect(ran).toBe('');
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('Made branch agent-team/quiet');
    expect(stdout).toContain('Pull request: https://github.com/example/project/pull/7');
    expect(git(origin, ['rev-parse', 'agent-team/quiet'], gitWorld)).toBe(
      git(world.workspace, ['rev-parse', 'agent-team/quiet'], gitWorld),
    );
    expect(git(world.workspace, ['cat-file', 'blob', 'agent-team/quiet:math.ts'], gitWorld)).toBe('export const one = 1.0;\n');
    expect((await gh.calls())[1]?.slice(0, 4)).toEqual(['pr', 'create', '--head', 'agent-team/quiet']);
  });

  it('proves the marker works: the same repository’s own git status runs its fsmonitor', async () => {
    const marker = path.join(gitWorld.home, 'marker');
    const record = path.join(gitWorld.home, 'record.sh');
    await writeFile(record, `#!/bin/sh\necho "$0 $*" >> '${marker}'\nexit 0\n`);
    await chmod(record, 0o755);
    initRepository(world.workspace, gitWorld);
    git(world.workspace, ['config', 'core.fsmonitor', record], gitWorld);
    git(world.workspace, ['status', '--porcelain'], gitWorld);
    expect(await readFile(marker, 'utf8')).toContain('record.sh');
  });
});

describe('agent-team apply --branch refuses a run file’s paths outside the workspace folder', () => {
  it('"../x" and ".GIT/…" in a monorepo subfolder: exit 2 naming the path, nothing committed or written', async () => {
    const app = path.join(world.workspace, 'app');
    await mkdir(app);
    await writeFile(path.join(app, 'main.ts'), 'export const main = 1;\n');
    initRepository(world.workspace, gitWorld);
    const runId = await runProposals(world, app, [
      { name: 'Edit', input: { file_path: 'main.ts', old_string: 'main = 1', new_string: 'main = 2' } },
    ]);
    const runFile = path.join(app, '.agent-team', 'runs', `${runId}.jsonl`);
    const original = await readFile(runFile, 'utf8');
    expect(original).toContain('"path":"main.ts"');
    const before = checkoutState(world.workspace, gitWorld);
    for (const crafted of ['../x', '.GIT/hooks/post-checkout']) {
      await writeFile(runFile, original.replaceAll('"path":"main.ts"', `"path":${JSON.stringify(crafted)}`));
      // A hand-edited run is foreign (its signature breaks): --force takes it, and its paths are still judged.
      const { code, stdout } = await apply(app, runId, '--branch', 'agent-team/escape', '--force');
      expect(code).toBe(2);
      expect(stdout).toContain(`The run's file names a path a branch must not commit: ${JSON.stringify(crafted)}`);
      expect(stdout).toContain('Nothing was committed');
    }
    expect(branches()).toEqual(['main']);
    expect(existsSync(path.join(world.workspace, 'x'))).toBe(false);
    expect(checkoutState(world.workspace, gitWorld)).toEqual(before);
  });
});

describe('agent-team apply --branch takes only a plain new branch name', () => {
  it.each(['refs/heads/main', 'HEAD', 'FETCH_HEAD', '-x'])('refuses %s (exit 2, nothing changed)', async (name) => {
    initRepository(world.workspace, gitWorld);
    const runId = await runProposals(world, world.workspace, configurationProposals.slice(0, 1));
    const before = git(world.workspace, ['rev-parse', 'main'], gitWorld);
    const { code, stdout } = await apply(world.workspace, runId, `--branch=${name}`);
    expect(code).toBe(2);
    expect(stdout).toContain(`"${name}" is not a valid branch name`);
    expect(branches()).toEqual(['main']);
    expect(git(world.workspace, ['rev-parse', 'main'], gitWorld)).toBe(before);
  });
});

describe("a repository's own git on PATH (direnv's `PATH_add bin`, a relative node_modules/.bin)", () => {
  it('is never run: the branch is made by the real git, and neither stand-in leaves its marker', async () => {
    initRepository(world.workspace, gitWorld);
    const runId = await runProposals(world, world.workspace, [
      { name: 'Edit', input: { file_path: 'math.ts', old_string: 'one = 1', new_string: 'one = 2' } },
    ]);
    const marker = path.join(gitWorld.home, 'fake-git-ran');
    for (const folder of ['bin', 'node_modules/.bin']) {
      await mkdir(path.join(world.workspace, folder), { recursive: true });
      await writeFile(path.join(world.workspace, folder, 'git'), `#!/bin/sh\necho ${folder} >> ${marker}\nexec /usr/bin/git "$@"\n`);
      await chmod(path.join(world.workspace, folder, 'git'), 0o755);
    }
    const searchPath = `${path.join(world.workspace, 'bin')}:node_modules/.bin:${gitWorld.environment.PATH ?? process.env.PATH ?? ''}`;
    const { code, stdout } = await startCli(
      world.cliPath,
      ['apply', runId, '--workspace', world.workspace, '--branch', 'agent-team/path'],
      { ...gitWorld.environment, PATH: searchPath },
    ).exited;
    expect(code, stdout).toBe(0);
    expect(branches()).toContain('agent-team/path');
    expect(existsSync(marker) ? await readFile(marker, 'utf8') : '').toBe('');
  });
});
