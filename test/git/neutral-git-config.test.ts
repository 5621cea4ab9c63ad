/**
 * Each program-running setting a repository's `.git/config` can hold, proven with real git through the
 * scratch copies' runner (src/engine/commands/git-runner.ts, which reads the neutral settings before every
 * call): the same git command, run plainly, starts the repository's program (a marker is written); run
 * through the runner, it does not. The user's own settings (a HOME configuration) are kept.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../src/engine/commands/git-runner.js';

const neutralGit = createGitRunner(process.env).git;
import { neutralGitConfig } from '../../src/engine/git/neutral-git-config.js';

let home: string;
let repository: string;
let marker: string;
let record: string;
/** git's environment: this test's HOME, no system configuration, no prompt. */
let environment: Record<string, string>;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'agent-team-neutral-'));
  repository = path.join(home, 'repository');
  marker = path.join(home, 'marker');
  record = path.join(home, 'record.sh');
  // Records who ran it and with what, then answers nothing (a helper, a hook, a signer that fails).
  await writeFile(record, `#!/bin/sh\necho "repository $0 $*" >> '${marker}'\nexit 1\n`);
  await chmod(record, 0o755);
  environment = {
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'A',
    GIT_AUTHOR_EMAIL: 'a@example.com',
    GIT_COMMITTER_NAME: 'A',
    GIT_COMMITTER_EMAIL: 'a@example.com',
  };
  plain(home, ['init', '--quiet', '--initial-branch=main', repository]);
  await writeFile(path.join(repository, 'a.txt'), 'a\n');
  plain(repository, ['add', 'a.txt']);
  plain(repository, ['commit', '--quiet', '-m', 'Initial']);
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function plain(cwd: string, args: string[], input?: string): string {
  try {
    const { GIT_EDITOR: _editor, VISUAL: _visual, EDITOR: _other, ...host } = process.env;
    return execFileSync('git', args, {
      cwd,
      env: { ...host, ...environment },
      encoding: 'utf8',
      input: input ?? '',
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch {
    return '';
  }
}

async function neutral(args: string[], input?: string): Promise<void> {
  await neutralGit(args, { cwd: repository, environment, ...(input !== undefined ? { input } : {}) }).catch(() => undefined);
}

const ran = async () => (existsSync(marker) ? await readFile(marker, 'utf8') : '');

/** Sets `settings` in the repository's own configuration; `trigger` makes git use them. */
async function provesNeutralised(
  settings: Array<[string, string]>,
  trigger: { args: string[]; input?: string; prepare?: () => Promise<void> },
): Promise<void> {
  for (const [key, value] of settings) plain(repository, ['config', key, value.replaceAll('RECORD', record)]);
  await trigger.prepare?.();
  plain(repository, trigger.args, trigger.input);
  expect(await ran(), 'the plain git call runs the repository’s program').toContain('repository');
  await rm(marker, { force: true });
  await trigger.prepare?.();
  await neutral(trigger.args, trigger.input);
  expect(await ran(), 'through the neutral runner it does not').toBe('');
}

const touchA = () => writeFile(path.join(repository, 'a.txt'), `a ${Math.random()}\n`);
const credentialQuery = 'protocol=https\nhost=example.com\n\n';

describe('the repository’s program-running settings, neutralised', () => {
  it('core.fsmonitor (git status)', () => provesNeutralised([['core.fsmonitor', 'RECORD']], { args: ['status', '--porcelain'] }));
  it('core.hooksPath (git commit)', async () => {
    await writeFile(path.join(repository, 'pre-commit'), `#!/bin/sh\n'${record}' hook\n`);
    await chmod(path.join(repository, 'pre-commit'), 0o755);
    await provesNeutralised([['core.hooksPath', repository]], { args: ['commit', '--allow-empty', '-m', 'x'] });
  });
  it('filter.<name>.clean (git add)', async () => {
    await writeFile(path.join(repository, '.gitattributes'), 'a.txt filter=owned\n');
    await provesNeutralised([['filter.owned.clean', 'RECORD']], { args: ['add', 'a.txt'], prepare: touchA });
  });
  it('filter.<name>.process with required (git add)', async () => {
    await writeFile(path.join(repository, '.gitattributes'), 'a.txt filter=owned\n');
    await provesNeutralised(
      [
        ['filter.owned.process', 'RECORD'],
        ['filter.owned.required', 'true'],
      ],
      { args: ['add', 'a.txt'], prepare: touchA },
    );
  });
  it('filter.<name>.smudge (git checkout-index)', async () => {
    await writeFile(path.join(repository, '.gitattributes'), 'a.txt filter=owned\n');
    await provesNeutralised([['filter.owned.smudge', 'RECORD']], {
      args: ['checkout-index', '--force', 'a.txt'],
      prepare: () => rm(path.join(repository, 'a.txt')),
    });
  });
  it('diff.external (git diff)', () => provesNeutralised([['diff.external', 'RECORD']], { args: ['diff'], prepare: touchA }));
  it('diff.<driver>.textconv (git diff)', async () => {
    await writeFile(path.join(repository, '.gitattributes'), 'a.txt diff=owned\n');
    await provesNeutralised([['diff.owned.textconv', 'RECORD']], { args: ['diff'], prepare: touchA });
  });
  it('gpg.program with commit.gpgSign (git commit)', () =>
    provesNeutralised(
      [
        ['commit.gpgSign', 'true'],
        ['gpg.program', 'RECORD'],
      ],
      { args: ['commit', '--allow-empty', '-m', 'x'] },
    ));
  it('core.editor (git commit without a message)', () =>
    provesNeutralised([['core.editor', 'RECORD']], { args: ['commit', '--allow-empty'] }));
  it('credential.helper (git credential fill)', () =>
    provesNeutralised([['credential.helper', 'RECORD']], { args: ['credential', 'fill'], input: credentialQuery }));
  it('core.askPass (git credential fill)', () =>
    provesNeutralised([['core.askPass', 'RECORD']], { args: ['credential', 'fill'], input: credentialQuery }));
  it('core.sshCommand (git ls-remote over ssh)', () =>
    provesNeutralised([['core.sshCommand', 'RECORD']], { args: ['ls-remote', 'ssh://git@localhost:1/x'] }));
  it('an ext:: transport the repository allows (git ls-remote)', async () => {
    plain(repository, ['remote', 'add', 'owned', `ext::${record} %S`]);
    await provesNeutralised([['protocol.allow', 'always']], { args: ['ls-remote', 'owned'] });
  });
  it('a setting in a file the repository includes', async () => {
    await writeFile(path.join(repository, 'extra.cfg'), `[core]\n\tfsmonitor = ${record}\n`);
    await provesNeutralised([['include.path', path.join(repository, 'extra.cfg')]], { args: ['status', '--porcelain'] });
  });
});

describe('the user’s own settings', () => {
  it('keeps the user’s credential helper and ssh command while dropping the repository’s', async () => {
    const user = path.join(home, 'user.sh');
    await writeFile(user, `#!/bin/sh\necho "user $*" >> '${marker}'\nexit 1\n`);
    await chmod(user, 0o755);
    plain(home, ['config', '--global', 'credential.helper', user]);
    plain(home, ['config', '--global', 'core.sshCommand', user]);
    plain(repository, ['config', 'credential.helper', record]);
    plain(repository, ['config', 'core.sshCommand', record]);
    await neutral(['credential', 'fill'], credentialQuery);
    await neutral(['ls-remote', 'ssh://git@localhost:1/x']);
    const lines = (await ran()).trim().split('\n');
    expect(lines.some((line) => line.startsWith('user get'))).toBe(true);
    expect(lines.some((line) => line.startsWith('user ') && line.includes('localhost'))).toBe(true);
    expect(lines.filter((line) => line.startsWith('repository'))).toEqual([]);
  });

  it('resets what the repository sets to the user’s value, and a subsection holding "=" is refused', () => {
    const entries = [
      { key: 'core.sshcommand', value: 'my-ssh', scope: 'global', origin: 'file:~/.gitconfig' },
      { key: 'core.sshcommand', value: 'owned', scope: 'local', origin: 'file:.git/config' },
      { key: 'filter.lfs.process', value: 'git-lfs filter-process', scope: 'global', origin: '' },
      { key: 'commit.gpgsign', value: 'true', scope: 'global', origin: '' },
    ];
    const config = neutralGitConfig(entries, {});
    // The user's own value goes back in the environment only: a command line is in every process listing.
    expect(config.arguments.some((argument) => argument.includes('my-ssh'))).toBe(false);
    const count = Number(config.environment.GIT_CONFIG_COUNT);
    expect(count).toBe(config.arguments.length / 2 + 1);
    expect([config.environment[`GIT_CONFIG_KEY_${count - 1}`], config.environment[`GIT_CONFIG_VALUE_${count - 1}`]]).toEqual([
      'core.sshcommand',
      'my-ssh',
    ]);
    expect(Object.values(config.environment).some((value) => value.startsWith('filter.lfs'))).toBe(false);
    expect(config.signCommits).toBe(true);
    expect(() => neutralGitConfig([{ key: 'filter.a=b.clean', value: 'owned', scope: 'local', origin: 'file:.git/config' }], {})).toThrow(
      /"filter\.a=b\.clean" \(in file:\.git\/config\)/,
    );
  });

  it('reads whether git takes GIT_CONFIG_COUNT (this one does), and without it puts everything on the command line but the user’s helpers', async () => {
    plain(repository, ['config', 'credential.helper', record]);
    const { readNeutralGitConfig } = await import('../../src/engine/git/git-config-listing.js');
    const read = await readNeutralGitConfig(
      async (args, extra) => ({
        exitCode: 0,
        stdout: execFileSync('git', args, { cwd: repository, env: { ...process.env, ...environment, ...extra }, encoding: 'utf8' }),
        stderr: '',
      }),
      {},
    );
    expect(read.readsEnvironment).toBe(true);
    const entries = [
      { key: 'credential.helper', value: 'store', scope: 'global', origin: '' },
      { key: 'credential.helper', value: 'owned', scope: 'local', origin: '' },
      { key: 'core.sshcommand', value: 'my-ssh', scope: 'global', origin: '' },
      { key: 'core.sshcommand', value: 'owned', scope: 'local', origin: '' },
    ];
    const old = neutralGitConfig(entries, {}, { readsEnvironment: false });
    expect(old.arguments).toContain('credential.helper=');
    expect(old.arguments).toContain('core.sshcommand=my-ssh');
    expect(old.arguments).not.toContain('credential.helper=store');
  });
});
