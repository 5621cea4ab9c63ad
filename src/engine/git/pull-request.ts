/**
 * After the branch: with GitHub's `gh` installed and signed in, the branch is pushed to `origin` and a pull
 * request opened with the run's trace as its body; otherwise the exact commands to do it by hand, with
 * the body saved to a file they name. Nothing here runs without `gh`: a bare `git push` to a remote the
 * user never asked about would publish their code.
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
  /** Where the body file is written. Default: the system's temporary folder. */
  temporaryDirectory?: string;
}

export type PullRequestResult =
  | { outcome: 'created'; url: string }
  /** Not attempted (`reason`): the commands to run in the repository, the body in `bodyFile`. */
  | { outcome: 'manual'; reason: string; commands: string[]; bodyFile: string }
  /** Attempted and failed at a step: the commands still to run. */
  | { outcome: 'failed'; message: string; commands: string[]; bodyFile: string };

export async function openPullRequest(request: PullRequestRequest): Promise<PullRequestResult> {
  const { runner: run, repositoryRoot: cwd, branch } = request;
  const folder = await mkdtemp(path.join(request.temporaryDirectory ?? tmpdir(), 'agent-team-pr-'));
  const bodyFile = path.join(folder, 'pull-request.md');
  await writeFile(bodyFile, request.body);
  const push = ['git', 'push', '-u', 'origin', branch];
  const create = ['gh', 'pr', 'create', '--head', branch, '--title', request.title, '--body-file', bodyFile];
  const commands = [push, create].map(commandLine);
  const auth = await run('gh', ['auth', 'status'], { cwd, timeoutMs: 30_000 });
  if (auth.notFound) return { outcome: 'manual', reason: 'gh (GitHub CLI) is not installed', commands, bodyFile };
  if (auth.exitCode !== 0) return { outcome: 'manual', reason: 'gh is not signed in (gh auth login)', commands, bodyFile };
  const origin = await run('git', ['remote', 'get-url', 'origin'], { cwd });
  if (origin.exitCode !== 0) return { outcome: 'manual', reason: 'the repository has no remote named origin', commands, bodyFile };
  const pushed = await run('git', push.slice(1), { cwd, timeoutMs: 300_000 });
  if (pushed.exitCode !== 0) return { outcome: 'failed', message: `git push failed: ${failureText(pushed)}`, commands, bodyFile };
  const created = await run('gh', create.slice(1), { cwd, timeoutMs: 120_000 });
  if (created.exitCode !== 0) return { outcome: 'failed', message: `gh pr create failed: ${failureText(created)}`, commands: [commandLine(create)], bodyFile };
  await rm(folder, { recursive: true, force: true });
  const url = created.stdout.split('\n').map((line) => line.trim()).filter((line) => /^https?:\/\//.test(line)).at(-1) ?? created.stdout.trim();
  return { outcome: 'created', url };
}

/** A POSIX shell command line: each word single-quoted when it needs it. */
export function commandLine(words: readonly string[]): string {
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}
