/**
 * Real git repositories for the `apply --branch` tests: a workspace made a repository with one commit, a
 * bare repository as its `origin`, an environment that reads no git configuration of the machine (a
 * HOME of its own, no system file) and a PATH holding only git (and, when asked, a `gh` stand-in that
 * records its arguments and the pull request body).
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface GitWorld {
  home: string;
  bin: string;
  /** The CLI's environment: HOME and PATH of this world, no system git configuration. */
  environment: Record<string, string>;
  dispose(): Promise<void>;
}

export async function makeGitWorld(): Promise<GitWorld> {
  const home = await mkdtemp(path.join(tmpdir(), 'agent-team-git-home-'));
  const bin = path.join(home, 'bin');
  await mkdir(bin);
  const gitPath = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  await symlink(gitPath, path.join(bin, 'git'));
  return {
    home,
    bin,
    environment: { HOME: home, PATH: bin, GIT_CONFIG_NOSYSTEM: '1' },
    dispose: () => rm(home, { recursive: true, force: true }),
  };
}

export function git(directory: string, args: string[], world: GitWorld): string {
  return execFileSync('git', args, {
    cwd: directory,
    env: { ...process.env, ...world.environment, PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
  });
}

/** Makes `directory` a repository on `main` with everything in it committed, and an identity of its own. */
export function initRepository(directory: string, world: GitWorld, options: { identity?: boolean } = {}): void {
  git(directory, ['init', '--quiet', '--initial-branch=main'], world);
  if (options.identity !== false) {
    git(directory, ['config', 'user.name', 'Test User'], world);
    git(directory, ['config', 'user.email', 'test@example.com'], world);
  }
  git(directory, ['add', '-A'], world);
  git(directory, ['-c', 'user.name=Setup', '-c', 'user.email=setup@example.com', 'commit', '--quiet', '-m', 'Initial'], world);
}

/** A bare repository, made the workspace's `origin`. */
export async function addOrigin(directory: string, world: GitWorld): Promise<string> {
  const origin = path.join(world.home, 'origin.git');
  git(world.home, ['init', '--quiet', '--bare', origin], world);
  git(directory, ['remote', 'add', 'origin', origin], world);
  return origin;
}

/** What must not change in the user's checkout. */
export function checkoutState(directory: string, world: GitWorld): Record<string, string> {
  return {
    head: git(directory, ['rev-parse', 'HEAD'], world),
    branch: git(directory, ['rev-parse', '--abbrev-ref', 'HEAD'], world),
    status: git(directory, ['status', '--porcelain'], world),
    staged: git(directory, ['diff', '--cached'], world),
    unstaged: git(directory, ['diff'], world),
    worktrees: git(directory, ['worktree', 'list', '--porcelain'], world).replace(/^HEAD .*$/m, ''),
  };
}

/**
 * A `gh` on the world's PATH: `auth status` answers 0, `pr create` prints a pull request address (after
 * a `git status`, with `runsGitStatus`); every call's arguments go to `gh-calls.txt`, and the
 * `--body-file` it was given to `pr-body.md`.
 */
export async function installGhStandIn(
  world: GitWorld,
  options: { runsGitStatus?: boolean } = {},
): Promise<{ calls(): Promise<string[][]>; body(): Promise<string> }> {
  const calls = path.join(world.home, 'gh-calls.txt');
  const body = path.join(world.home, 'pr-body.md');
  const script = [
    '#!/bin/sh',
    `for argument in "$@"; do printf '%s\\037' "$argument" >> '${calls}'; done`,
    `printf '\\n' >> '${calls}'`,
    'previous=""',
    `for argument in "$@"; do if [ "$previous" = "--body-file" ]; then /bin/cat "$argument" > '${body}'; fi; previous="$argument"; done`,
    // As the real `gh pr create` does, to count uncommitted changes: a git of gh's own, in the repository.
    ...(options.runsGitStatus ? ['if [ "$1" = "pr" ]; then git status --porcelain > /dev/null; fi'] : []),
    'if [ "$1" = "pr" ]; then echo "https://github.com/example/project/pull/7"; fi',
    'exit 0',
    '',
  ].join('\n');
  await writeFile(path.join(world.bin, 'gh'), script);
  await chmod(path.join(world.bin, 'gh'), 0o755);
  return {
    calls: async () =>
      (await readFile(calls, 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split('\x1f').slice(0, -1)),
    body: () => readFile(body, 'utf8'),
  };
}
