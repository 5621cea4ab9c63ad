/**
 * After the branch: with GitHub's `gh` installed and signed in, the branch is pushed to `origin` and a pull
 * request opened with the run's trace as its body; otherwise the exact commands to do it by hand, with
 * the body saved to a file they name. Nothing here runs without `gh`: a bare `git push` to a remote the
 * user never asked about would publish their code. The push runs no hook, and goes only to a network
 * address (https, ssh) or a folder of this machine, whose own hooks are switched off too.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { failureText, type ProgramRunner } from './program-runner.js';

export interface PullRequestRequest {
  repositoryRoot: string;
  branch: string;
  title: string;
  /** Markdown. */
  body: string;
  runner: ProgramRunner;
  /**
   * Whether git reads the neutral settings from the environment (`NeutralGitConfig.readsEnvironment`):
   * gh runs git itself, with no `-c` of ours; on an older git its git would run the repository's programs,
   * so gh is not started and the commands are given instead.
   */
  gitReadsEnvironment: boolean;
  /** Where the body file is written. Default: the system's temporary folder. */
  temporaryDirectory?: string;
}

export type PullRequestResult =
  | { outcome: 'created'; url: string }
  /**
   * Not attempted (`reason`): the commands to run in the repository, the body in `bodyFile`. `noRemote`:
   * the repository has no remote at all, so the commands look at and merge the branch here instead of
   * pushing it (a push to a remote that does not exist would only fail).
   */
  | { outcome: 'manual'; reason: string; commands: string[]; bodyFile: string; noRemote?: true }
  /** Attempted and failed at a step: the commands still to run. */
  | { outcome: 'failed'; message: string; commands: string[]; bodyFile: string };

export async function openPullRequest(request: PullRequestRequest): Promise<PullRequestResult> {
  const { runner: run, repositoryRoot: cwd, branch } = request;
  const folder = await mkdtemp(path.join(request.temporaryDirectory ?? tmpdir(), 'agent-team-pr-'));
  const bodyFile = path.join(folder, 'pull-request.md');
  await writeFile(bodyFile, request.body);
  const remotes = await run('git', ['remote'], { cwd });
  const names =
    remotes.exitCode === 0
      ? remotes.stdout
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== '')
      : ['origin'];
  if (names.length === 0) {
    const local = [
      ['git', 'show', '--stat', branch],
      ['git', 'merge', branch],
    ].map(commandLine);
    return { outcome: 'manual', reason: 'the repository has no remote to push to', commands: local, bodyFile, noRemote: true };
  }
  // The commands by hand name a remote the repository has: origin, else its first.
  const push = ['git', 'push', '-u', names.includes('origin') ? 'origin' : names[0]!, branch];
  const create = ['gh', 'pr', 'create', '--head', branch, '--title', request.title, '--body-file', bodyFile];
  const commands = [push, create].map(commandLine);
  if (!request.gitReadsEnvironment)
    return {
      outcome: 'manual',
      reason: "this git (older than 2.31) cannot be given the settings that keep gh's own git calls from running the repository's programs",
      commands,
      bodyFile,
    };
  const auth = await run('gh', ['auth', 'status'], { cwd, timeoutMs: 30_000 });
  if (auth.notFound) return { outcome: 'manual', reason: 'gh (GitHub CLI) is not installed', commands, bodyFile };
  if (auth.exitCode !== 0) return { outcome: 'manual', reason: 'gh is not signed in (gh auth login)', commands, bodyFile };
  const origin = await run('git', ['remote', 'get-url', '--push', 'origin'], { cwd });
  if (origin.exitCode !== 0) return { outcome: 'manual', reason: 'the repository has no remote named origin', commands, bodyFile };
  const transport = pushTransport(origin.stdout.trim());
  if ('refused' in transport) return { outcome: 'manual', reason: transport.refused, commands, bodyFile };
  // Hooks off (the repository's pre-push is the repository's code), no submodule pushed along.
  const pushed = await run(
    'git',
    ['-c', 'core.hooksPath=/dev/null', 'push', '--no-verify', '--recurse-submodules=no', ...transport.arguments, ...push.slice(2)],
    { cwd, timeoutMs: 300_000 },
  );
  if (pushed.exitCode !== 0) return { outcome: 'failed', message: `git push failed: ${failureText(pushed)}`, commands, bodyFile };
  const created = await run('gh', create.slice(1), { cwd, timeoutMs: 120_000 });
  if (created.exitCode !== 0)
    return { outcome: 'failed', message: `gh pr create failed: ${failureText(created)}`, commands: [commandLine(create)], bodyFile };
  await rm(folder, { recursive: true, force: true });
  const url =
    created.stdout
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^https?:\/\//.test(line))
      .at(-1) ?? created.stdout.trim();
  return { outcome: 'created', url };
}

/** A POSIX shell command line: each word single-quoted when it needs it. */
export function commandLine(words: readonly string[]): string {
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/**
 * Extra `git push` arguments for origin's push address, or why it is not pushed to: a remote helper
 * (`ext::`, `<x>::`) or a `git://` address (its proxy command cannot be switched off) may run a program.
 * A folder on this machine is pushed to by a `git receive-pack` that git starts here, in that repository,
 * with that repository's hooks: they are switched off on its command line.
 */
export function pushTransport(address: string): { arguments: string[] } | { refused: string } {
  if (/^[a-z][a-z0-9+.-]*::/i.test(address))
    return {
      refused: `origin's push address (${address.split('::')[0]}::…) goes through a remote helper, a program Agent Team does not start`,
    };
  if (/^git:\/\//i.test(address)) return { refused: "origin's push address is git://, which Agent Team does not push to" };
  // git keeps the first `remote.<name>.receivepack` it reads, the repository's: the command line wins.
  const network = { arguments: ['--receive-pack=git-receive-pack'] };
  if (/^(?:https?|ssh|git\+ssh|ssh\+git):\/\//i.test(address)) return network;
  const local = /^file:\/\//i.test(address) || /^[a-z]:[\\/]/i.test(address) || !/^[^/]*:/.test(address);
  if (!local) return network;
  return {
    arguments: [
      '--receive-pack=git -c core.hooksPath=/dev/null -c core.fsmonitor=false -c receive.denyCurrentBranch=refuse -c receive.autogc=false receive-pack',
    ],
  };
}
