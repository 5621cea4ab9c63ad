/**
 * "Apply to a branch": a run's proposals committed on a new branch made from the commit HEAD is on,
 * without touching the user's checkout, index or current branch. Everything is checked before anything
 * is made (the repository, the name, the identity, each file against HEAD), so a refusal or a conflict
 * changes nothing; then the commit is made in a temporary worktree (temporary-worktree.ts).
 */
import type { BranchFile } from './branch-files.js';
import { type BranchConflict, planBranch } from './branch-plan.js';
import { type BranchRefusal, checkRepository } from './branch-preflight.js';
import { commitMessageOf, type RunDescription } from './commit-message.js';
import { nodeProgramRunner, type ProgramRunner } from './program-runner.js';
import { commitInTemporaryWorktree } from './temporary-worktree.js';

export interface ApplyToBranchRequest {
  /** The workspace folder (the repository, or a folder inside it): the files' paths are relative to it. */
  workspace: string;
  /** The new branch's name. */
  branch: string;
  files: readonly BranchFile[];
  run: RunDescription;
  /** Runs git. Default: `nodeProgramRunner()`. */
  runner?: ProgramRunner;
  /** Where the worktree's temporary folder is made. Default: the system's. */
  temporaryDirectory?: string;
}

export type ApplyToBranchResult =
  | BranchRefusal
  | { outcome: 'conflict'; conflicts: BranchConflict[] }
  | { outcome: 'nothing-to-commit'; message: string }
  | { outcome: 'failed'; message: string }
  | {
      outcome: 'committed';
      branch: string;
      commit: string;
      repositoryRoot: string;
      /** The workspace paths committed, and those left out because HEAD already has them as proposed. */
      committed: string[];
      unchanged: string[];
      /** What the user should know: a detached HEAD, uncommitted changes not in the branch. */
      notes: string[];
    };

export async function applyToBranch(request: ApplyToBranchRequest): Promise<ApplyToBranchResult> {
  const run = request.runner ?? nodeProgramRunner();
  const repository = await checkRepository(request.workspace, request.branch, run);
  if ('outcome' in repository) return repository;
  const plan = await planBranch(repository, request.files, run);
  if (plan.conflicts.length > 0) return { outcome: 'conflict', conflicts: plan.conflicts };
  if (plan.writes.length === 0) {
    const why = plan.unchanged.length > 0 ? `HEAD already has every proposed change (${plan.unchanged.join(', ')})` : 'there is no proposal to commit';
    return { outcome: 'nothing-to-commit', message: `No branch was made: ${why}.` };
  }
  const committedPaths = request.files.filter((file) => !plan.unchanged.includes(file.path)).map((file) => file.path);
  const committedFiles = request.files.filter((file) => committedPaths.includes(file.path));
  const result = await commitInTemporaryWorktree(
    {
      repositoryRoot: repository.root,
      branch: request.branch,
      startCommit: repository.headCommit,
      writes: plan.writes,
      message: commitMessageOf(request.run, committedFiles),
      ...(request.temporaryDirectory ? { temporaryDirectory: request.temporaryDirectory } : {}),
    },
    run,
  );
  if (result.outcome === 'failed') {
    if (result.pathTaken) return { outcome: 'refused', reason: 'worktree-path-taken', message: `git says the temporary worktree's folder is taken; nothing was changed. ${result.message}` };
    return { outcome: 'failed', message: `${result.message} Nothing was changed: the branch ${request.branch} was not made.` };
  }
  const notes: string[] = [];
  const start = repository.headCommit.slice(0, 12);
  if (repository.currentBranch === undefined) notes.push(`HEAD is detached: the branch starts from the commit you are on (${start}).`);
  else notes.push(`The branch starts from ${repository.currentBranch} (${start}); you are still on ${repository.currentBranch}.`);
  if (repository.hasUncommittedChanges) notes.push('Your uncommitted changes are not in the branch (it was made from the last commit); your working tree was left as it was.');
  return { outcome: 'committed', branch: request.branch, commit: result.commit, repositoryRoot: repository.root, committed: [...new Set(committedPaths)], unchanged: plan.unchanged, notes };
}
