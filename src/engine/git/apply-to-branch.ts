/**
 * "Apply to a branch": a run's proposals committed on a new branch made from the commit HEAD is on,
 * without touching the user's checkout, index or current branch. Everything is checked before anything
 * is made (each path, the repository, the name, the identity, each file against HEAD), so a refusal or
 * a conflict changes nothing; then the commit is made with an index of its own (temporary-worktree.ts).
 * The rules of a working-tree apply hold: a file that needs the user's explicit approval is held back
 * (branch-approvals.ts), and git runs none of the repository's programs (neutral-program-runner.ts).
 */
import { PathRules } from '../workspace/path-rules.js';
import { type ApproveFile, type HeldBackFile, holdBackUnapproved } from './branch-approvals.js';
import type { BranchFile } from './branch-files.js';
import { firstBranchPathProblem } from './branch-paths.js';
import { type BranchConflict, planBranch } from './branch-plan.js';
import { type BranchRefusal, checkRepository } from './branch-preflight.js';
import { commitMessageOf, type RunDescription } from './commit-message.js';
import type { NeutralRunner } from './neutral-program-runner.js';
import { commitInTemporaryWorktree } from './temporary-worktree.js';
import { distrustProgramsUnder } from '../program-search-path.js';

export interface ApplyToBranchRequest {
  /** The workspace folder (the repository, or a folder inside it): the files' paths are relative to it. */
  workspace: string;
  /** The new branch's name. */
  branch: string;
  files: readonly BranchFile[];
  run: RunDescription;
  /** git (and gh) with the repository's program-running settings neutralised (`neutralProgramRunner` on the host's environment). */
  git: NeutralRunner;
  /** The rules that hold a file back for approval, the working-tree apply's. Default: the default workspace policy's. */
  rules?: PathRules;
  /** Asked about each file that needs explicit approval, after every check passed; yes puts it in the commit. Default: none asked, all held back. */
  approve?: ApproveFile;
  /** Where the worktree's temporary folder is made. Default: the system's. */
  temporaryDirectory?: string;
}

export type ApplyToBranchResult =
  | BranchRefusal
  | { outcome: 'conflict'; conflicts: BranchConflict[] }
  | { outcome: 'nothing-to-commit'; message: string; heldBack: HeldBackFile[] }
  | { outcome: 'failed'; message: string }
  | {
      outcome: 'committed';
      branch: string;
      commit: string;
      repositoryRoot: string;
      /** The workspace paths committed, and those left out because HEAD already has them as proposed. */
      committed: string[];
      unchanged: string[];
      /** Files that need the user's explicit approval, not in the commit. */
      heldBack: HeldBackFile[];
      /** What the user should know: a detached HEAD, uncommitted changes not in the branch. */
      notes: string[];
    };

export async function applyToBranch(request: ApplyToBranchRequest): Promise<ApplyToBranchResult> {
  // git and gh are taken from no PATH entry inside the workspace or its repository (program-search-path.ts).
  distrustProgramsUnder(request.workspace);
  const rules = request.rules ?? new PathRules();
  const pathProblem = firstBranchPathProblem(request.files.map((file) => file.path)) ?? protectedPath(request.files, rules);
  if (pathProblem)
    return {
      outcome: 'refused',
      reason: 'unsafe-path',
      message: `The run's file names a path a branch must not commit: ${pathProblem}. Nothing was committed (was the run's file edited by hand?).`,
    };
  const git = request.git;
  const run = git.runner;
  const repository = await checkRepository(request.workspace, request.branch, run);
  if ('outcome' in repository) return repository;
  distrustProgramsUnder(repository.root);
  const plan = await planBranch(repository, request.files, run);
  if (plan.conflicts.length > 0) return { outcome: 'conflict', conflicts: plan.conflicts };
  const { writes, heldBack } = await holdBackUnapproved(plan.writes, rules, request.approve);
  if (writes.length === 0) {
    const why =
      heldBack.length > 0
        ? `every proposed change needs your explicit approval (${heldBack.map((file) => file.path).join(', ')})`
        : plan.unchanged.length > 0
          ? `HEAD already has every proposed change (${plan.unchanged.join(', ')})`
          : 'there is no proposal to commit';
    return { outcome: 'nothing-to-commit', message: `No branch was made: ${why}.`, heldBack };
  }
  const held = new Set(heldBack.map((file) => file.path));
  const committedPaths = request.files
    .filter((file) => !plan.unchanged.includes(file.path) && !held.has(file.path))
    .map((file) => file.path);
  const committedFiles = request.files.filter((file) => committedPaths.includes(file.path));
  const result = await commitInTemporaryWorktree(
    {
      repositoryRoot: repository.root,
      branch: request.branch,
      startCommit: repository.headCommit,
      writes,
      message: commitMessageOf(request.run, committedFiles),
      sign: git.config.signCommits,
      ...(request.temporaryDirectory ? { temporaryDirectory: request.temporaryDirectory } : {}),
    },
    run,
  );
  if (result.outcome === 'failed') {
    if (result.pathTaken)
      return {
        outcome: 'refused',
        reason: 'worktree-path-taken',
        message: `git says the temporary worktree's folder is taken; nothing was changed. ${result.message}`,
      };
    return { outcome: 'failed', message: `${result.message} Nothing was changed: the branch ${request.branch} was not made.` };
  }
  const notes: string[] = [];
  const start = repository.headCommit.slice(0, 12);
  if (repository.currentBranch === undefined) notes.push(`HEAD is detached: the branch starts from the commit you are on (${start}).`);
  else notes.push(`The branch starts from ${repository.currentBranch} (${start}); you are still on ${repository.currentBranch}.`);
  if (repository.hasUncommittedChanges)
    notes.push('Your uncommitted changes are not in the branch (it was made from the last commit); your working tree was left as it was.');
  return {
    outcome: 'committed',
    branch: request.branch,
    commit: result.commit,
    repositoryRoot: repository.root,
    committed: [...new Set(committedPaths)],
    unchanged: plan.unchanged,
    heldBack,
    notes,
  };
}

/** A path the policy never lets an agent write (version-control internals of any kind), by either name. */
function protectedPath(files: readonly BranchFile[], rules: PathRules): string | undefined {
  const file = files.find((candidate) => rules.matcher.isProtected(candidate.path));
  return file ? `${JSON.stringify(file.path)} is version-control internals` : undefined;
}
