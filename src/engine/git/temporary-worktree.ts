/**
 * The commit is made in a `git worktree` of its own in a fresh temporary folder, so the user's checkout,
 * index and current branch are never touched (uncommitted work included). The worktree is removed
 * afterwards whatever happened, and a branch whose commit failed is deleted again: a refusal or a
 * failure leaves the repository as it was.
 */
import { lstat, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { errorMessage } from '../errors.js';
import { failureText, type ProgramRunner } from './program-runner.js';

export interface WorktreeCommit {
  repositoryRoot: string;
  branch: string;
  /** The commit the branch starts from. */
  startCommit: string;
  writes: ReadonlyArray<{ repositoryPath: string; content: string }>;
  message: string;
  /** Where the temporary folder is made. Default: the system's. */
  temporaryDirectory?: string;
}

export type WorktreeCommitResult = { outcome: 'committed'; commit: string } | { outcome: 'failed'; message: string; pathTaken?: boolean };

export async function commitInTemporaryWorktree(request: WorktreeCommit, run: ProgramRunner): Promise<WorktreeCommitResult> {
  const { repositoryRoot: root, branch } = request;
  // mkdtemp: a folder nobody else made, private to this user; the worktree is a new folder inside it.
  const holder = await mkdtemp(path.join(request.temporaryDirectory ?? tmpdir(), 'agent-team-branch-'));
  const worktree = path.join(holder, 'worktree');
  let branchMade = false;
  /** git refused the folder as taken: whatever is there is not this worktree, and is left alone. */
  let folderTaken = false;
  let committed = false;
  try {
    const added = await run('git', ['worktree', 'add', '--quiet', '-b', branch, worktree, request.startCommit], { cwd: root, timeoutMs: 300_000 });
    branchMade = (await run('git', ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { cwd: root })).exitCode === 0;
    if (added.exitCode !== 0) {
      folderTaken = /already exists/.test(added.stderr) && !branchMade;
      return { outcome: 'failed', message: `git worktree add failed: ${failureText(added)}`, pathTaken: folderTaken };
    }
    for (const write of request.writes) await writeInside(worktree, write.repositoryPath, write.content);
    const staged = await run('git', ['--literal-pathspecs', 'add', '--', ...request.writes.map((write) => write.repositoryPath)], { cwd: worktree });
    if (staged.exitCode !== 0) return { outcome: 'failed', message: `git add failed: ${failureText(staged)}` };
    const messageFile = path.join(holder, 'commit-message.txt');
    await writeFile(messageFile, request.message);
    // The repository's hooks run as for any commit of the user's; a hook that refuses is reported.
    const commit = await run('git', ['-c', 'user.useConfigOnly=true', 'commit', '--quiet', '--file', messageFile], { cwd: worktree, timeoutMs: 300_000 });
    if (commit.exitCode !== 0) return { outcome: 'failed', message: `git commit failed: ${failureText(commit)}` };
    const head = await run('git', ['rev-parse', 'HEAD'], { cwd: worktree });
    committed = true;
    return { outcome: 'committed', commit: head.stdout.trim() };
  } catch (error) {
    return { outcome: 'failed', message: errorMessage(error) };
  } finally {
    // A worktree this made, even half, is removed; a folder git refused as taken may be somebody else's.
    if (!folderTaken) await removeWorktree(root, worktree, run);
    await rm(holder, { recursive: true, force: true });
    if (branchMade && !committed) await run('git', ['branch', '--quiet', '-D', branch], { cwd: root });
  }
}

async function removeWorktree(root: string, worktree: string, run: ProgramRunner): Promise<void> {
  const removed = await run('git', ['worktree', 'remove', '--force', worktree], { cwd: root });
  if (removed.exitCode === 0) return;
  // Never made, or half made: the folder goes, and git forgets the entry.
  await rm(worktree, { recursive: true, force: true });
  await run('git', ['worktree', 'prune'], { cwd: root });
}

/**
 * Writes a file in the worktree, never through a symbolic link: HEAD may hold one (`docs -> /etc`), and
 * a write through it would land outside the worktree.
 */
async function writeInside(worktree: string, repositoryPath: string, content: string): Promise<void> {
  const segments = repositoryPath.split('/');
  let directory = worktree;
  for (const segment of segments.slice(0, -1)) {
    directory = path.join(directory, segment);
    const info = await lstat(directory).catch(() => undefined);
    if (info?.isSymbolicLink()) throw new Error(`${repositoryPath} lies behind a symbolic link in the commit (${path.relative(worktree, directory)}); nothing was committed.`);
    if (!info) await mkdir(directory);
    else if (!info.isDirectory()) throw new Error(`${repositoryPath} cannot be written: ${path.relative(worktree, directory)} is a file in the commit; nothing was committed.`);
  }
  const target = path.join(worktree, ...segments);
  const info = await lstat(target).catch(() => undefined);
  if (info && !info.isFile()) throw new Error(`${repositoryPath} is not a regular file in the commit; nothing was committed.`);
  await writeFile(target, content);
}
