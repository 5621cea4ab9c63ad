/**
 * The commit is made with an index of its own, in a `git worktree` made in a fresh temporary folder, so
 * the user's checkout, index and current branch are never touched (uncommitted work included). Nothing
 * is checked out there and no file of the commit is ever written to disk: the proposals become blobs
 * (`hash-object --no-filters`, so no clean filter runs), are put in the worktree's index at their paths
 * (`update-index --cacheinfo`: a path behind a link or a file in the commit is refused by git), and the
 * tree is committed with `commit-tree` in the repository itself (no commit hook exists for it), then the
 * branch is made with `update-ref`, only if no branch of that name exists by then. Every call runs
 * through the neutral runner (neutral-program-runner.ts), with hooks off on top. The worktree is removed
 * afterwards whatever happened: a refusal or a failure leaves the repository as it was.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { errorMessage } from '../errors.js';
import type { BranchWrite } from './branch-plan.js';
import { failureText, type ProgramRunner } from './program-runner.js';

export interface WorktreeCommit {
  repositoryRoot: string;
  branch: string;
  /** The commit the branch starts from. */
  startCommit: string;
  writes: ReadonlyArray<Pick<BranchWrite, 'repositoryPath' | 'content' | 'mode'>>;
  message: string;
  /** Sign the commit (the user's own `commit.gpgSign`, which `commit-tree` does not read itself). Default: false. */
  sign?: boolean;
  /** Where the temporary folder is made. Default: the system's. */
  temporaryDirectory?: string;
}

export type WorktreeCommitResult = { outcome: 'committed'; commit: string } | { outcome: 'failed'; message: string; pathTaken?: boolean };

/** Hooks off for every call, whatever runner is given: the repository's hooks are the repository's code. */
const noHooks = ['-c', 'core.hooksPath=/dev/null'];

export async function commitInTemporaryWorktree(request: WorktreeCommit, run: ProgramRunner): Promise<WorktreeCommitResult> {
  const { repositoryRoot: root, branch } = request;
  const git = (args: string[], cwd: string, timeoutMs?: number) =>
    run('git', [...noHooks, ...args], { cwd, ...(timeoutMs ? { timeoutMs } : {}) });
  // mkdtemp: a folder nobody else made, private to this user; the worktree is a new folder inside it.
  const holder = await mkdtemp(path.join(request.temporaryDirectory ?? tmpdir(), 'agent-team-branch-'));
  const worktree = path.join(holder, 'worktree');
  /** git refused the folder as taken: whatever is there is not this worktree, and is left alone. */
  let folderTaken = false;
  try {
    // Detached: no branch exists until the commit does, and a configuration included only "onbranch:" the
    // new branch never applies in the worktree.
    const added = await git(['worktree', 'add', '--quiet', '--detach', '--no-checkout', worktree, request.startCommit], root, 300_000);
    if (added.exitCode !== 0) {
      folderTaken = /already exists/.test(added.stderr);
      return { outcome: 'failed', message: `git worktree add failed: ${failureText(added)}`, pathTaken: folderTaken };
    }
    const read = await git(['read-tree', request.startCommit], worktree);
    if (read.exitCode !== 0) return { outcome: 'failed', message: `git read-tree failed: ${failureText(read)}` };
    for (const [index, write] of request.writes.entries()) {
      const blobFile = path.join(holder, `blob-${index}`);
      await writeFile(blobFile, write.content);
      const blob = await git(['hash-object', '-w', '--no-filters', '--', blobFile], worktree);
      if (blob.exitCode !== 0)
        return { outcome: 'failed', message: `git hash-object failed for ${write.repositoryPath}: ${failureText(blob)}` };
      const staged = await git(
        ['update-index', '--add', '--cacheinfo', `${write.mode},${blob.stdout.trim()},${write.repositoryPath}`],
        worktree,
      );
      if (staged.exitCode !== 0)
        return {
          outcome: 'failed',
          message: `${write.repositoryPath} cannot be committed where the commit has a file or a symbolic link on its way (${failureText(staged)}); nothing was committed.`,
        };
    }
    const tree = await git(['write-tree'], worktree);
    if (tree.exitCode !== 0) return { outcome: 'failed', message: `git write-tree failed: ${failureText(tree)}` };
    const messageFile = path.join(holder, 'commit-message.txt');
    await writeFile(messageFile, request.message);
    const commit = await git(
      [
        '-c',
        'user.useConfigOnly=true',
        'commit-tree',
        ...(request.sign ? ['-S'] : []),
        tree.stdout.trim(),
        '-p',
        request.startCommit,
        '-F',
        messageFile,
      ],
      root,
      300_000,
    );
    if (commit.exitCode !== 0) return { outcome: 'failed', message: `git commit-tree failed: ${failureText(commit)}` };
    const commitId = commit.stdout.trim();
    // The empty old value: made only if no branch of that name exists by now (never moves one).
    const made = await git(['update-ref', '-m', `agent-team: apply to branch ${branch}`, `refs/heads/${branch}`, commitId, ''], root);
    if (made.exitCode !== 0) return { outcome: 'failed', message: `git could not make the branch: ${failureText(made)}` };
    return { outcome: 'committed', commit: commitId };
  } catch (error) {
    return { outcome: 'failed', message: errorMessage(error) };
  } finally {
    // A worktree this made, even half, is removed; a folder git refused as taken may be somebody else's.
    if (!folderTaken) await removeWorktree(root, worktree, git);
    await rm(holder, { recursive: true, force: true });
  }
}

async function removeWorktree(
  root: string,
  worktree: string,
  git: (args: string[], cwd: string) => ReturnType<ProgramRunner>,
): Promise<void> {
  const removed = await git(['worktree', 'remove', '--force', worktree], root);
  if (removed.exitCode === 0) return;
  // Never made, or half made: the folder goes, and git forgets the entry.
  await rm(worktree, { recursive: true, force: true });
  await git(['worktree', 'prune'], root);
}
