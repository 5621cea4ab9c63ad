/**
 * What is checked before a branch is made, each refusal with what to do instead, and nothing changed
 * yet: a git repository with a commit, a valid branch name no branch has, and a git identity for the
 * commit (never invented: the commit would carry a name the user did not choose). A detached HEAD is
 * allowed (a CI checkout, a bisect): the branch starts from the commit HEAD is on, and the user is told.
 * Uncommitted changes are allowed too (the branch is made in a worktree of its own), with a note that
 * they are not in the branch.
 */
import path from 'node:path';
import { branchNameRuleProblem } from './branch-name-rules.js';
import { failureText, type ProgramRunner } from './program-runner.js';

export type RefusalReason =
  | 'not-a-repository'
  | 'no-commit'
  | 'invalid-branch-name'
  | 'branch-exists'
  | 'no-identity'
  | 'worktree-path-taken'
  | 'unsafe-path'
  | 'repository-configuration';

export interface BranchRefusal {
  outcome: 'refused';
  reason: RefusalReason;
  message: string;
}

export interface Repository {
  /** The repository's top folder. */
  root: string;
  /** The workspace's folder inside it, POSIX, '' or ending in '/' (`git rev-parse --show-prefix`). */
  prefix: string;
  /** The commit the branch starts from. */
  headCommit: string;
  /** The branch HEAD is on; undefined when HEAD is detached. */
  currentBranch?: string;
  /** True when the checkout has changes not committed (they are not in the branch). */
  hasUncommittedChanges: boolean;
}

export async function checkRepository(workspace: string, branch: string, run: ProgramRunner): Promise<Repository | BranchRefusal> {
  const top = await run('git', ['rev-parse', '--show-toplevel'], { cwd: workspace });
  if (top.exitCode !== 0)
    return refuse(
      'not-a-repository',
      `${workspace} is not in a git repository (${failureText(top)}). A branch needs one: run "git init" and commit, or apply to the working tree without --branch.`,
    );
  const root = path.resolve(top.stdout.trim());
  const prefix = (await run('git', ['rev-parse', '--show-prefix'], { cwd: workspace })).stdout.trim();
  const head = await run('git', ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: root });
  if (head.exitCode !== 0) return refuse('no-commit', `The repository ${root} has no commit yet: a branch starts from one. Commit first.`);
  const nameProblem = await branchNameProblem(branch, root, run);
  if (nameProblem) return refuse('invalid-branch-name', nameProblem);
  const existing = await run('git', ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { cwd: root });
  if (existing.exitCode === 0)
    return refuse('branch-exists', `A branch named "${branch}" already exists; nothing was changed. Pick another name with --branch.`);
  const identityProblem = await missingIdentity(root, run);
  if (identityProblem) return refuse('no-identity', identityProblem);
  const symbolic = await run('git', ['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd: root });
  const status = await run('git', ['status', '--porcelain', '--untracked-files=normal'], { cwd: root });
  return {
    root,
    prefix,
    headCommit: head.stdout.trim(),
    ...(symbolic.exitCode === 0 ? { currentBranch: symbolic.stdout.trim() } : {}),
    hasUncommittedChanges: status.exitCode === 0 && status.stdout.trim() !== '',
  };
}

/** Why git would not take `branch` as a new branch's name, or undefined when it would. */
export async function branchNameProblem(branch: string, cwd: string, run: ProgramRunner): Promise<string | undefined> {
  // Checked here first: a leading dash would read as an option to the git command it is given to.
  const ruleProblem = branchNameRuleProblem(branch);
  if (ruleProblem) return `"${branch}" is not a valid branch name: ${ruleProblem}`;
  const checked = await run('git', ['check-ref-format', '--branch', branch], { cwd });
  if (checked.exitCode !== 0 || checked.stdout.trim() !== branch)
    return `"${branch}" is not a valid branch name (git check-ref-format --branch refuses it: no spaces, "..", "~", "^", ":", "?", "*", "[", "\\", and no "/" at either end).`;
  return undefined;
}

async function missingIdentity(root: string, run: ProgramRunner): Promise<string | undefined> {
  // useConfigOnly: git's configuration or its GIT_AUTHOR_*/GIT_COMMITTER_* variables, never a name
  // and address guessed from the machine.
  for (const ident of ['GIT_AUTHOR_IDENT', 'GIT_COMMITTER_IDENT']) {
    const result = await run('git', ['-c', 'user.useConfigOnly=true', 'var', ident], { cwd: root });
    if (result.exitCode !== 0)
      return 'git has no identity to make the commit as (user.name and user.email); it is made as you, never as a made-up name. Set them, then try again:\n  git config --global user.name "Your Name"\n  git config --global user.email "you@example.com"';
  }
  return undefined;
}

function refuse(reason: RefusalReason, message: string): BranchRefusal {
  return { outcome: 'refused', reason, message };
}
