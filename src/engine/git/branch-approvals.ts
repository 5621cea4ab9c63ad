/**
 * The working-tree apply's approval rules, applied to a branch: a file the working tree would hold back
 * for the user's explicit approval (configuration that runs code or grants permissions: git hooks,
 * workflows, editor settings; secret files; a package manifest whose change can run code) is held back
 * from the commit the same way, by the same rules (`PathRules.approvalReason`, the one source), with the
 * same report (`needsApproval`), unless the user approved that file on its own. A branch is no way around
 * a review: a pushed workflow runs in CI with the repository's secrets, a committed hook on the next commit.
 */
import { needsApproval } from '../changes/apply.js';
import type { PathRules } from '../workspace/path-rules.js';
import type { BranchWrite } from './branch-plan.js';

export interface HeldBackFile {
  /** The workspace path. */
  path: string;
  /** Why it needs approval (`PathRules.approvalReason`). */
  reason: string;
  /** The working-tree apply's words for it. */
  message: string;
}

/** Asks the user about one file (VS Code's modal); true: commit it. */
export type ApproveFile = (file: HeldBackFile) => Promise<boolean>;

/**
 * Splits `writes` into those that may be committed and those held back. Each is judged on what would be
 * committed over what the commit it starts from has (a manifest whose change leaves its scripts alone
 * needs no approval), under its workspace path and, when the workspace is a subfolder, its repository
 * path too (a workspace at `.github` proposing `workflows/ci.yml` proposes a workflow). A file needing
 * approval goes in only when `approve` says yes for it; without `approve` (the CLI), never.
 */
export async function holdBackUnapproved(
  writes: readonly BranchWrite[],
  rules: PathRules,
  approve?: ApproveFile,
): Promise<{ writes: BranchWrite[]; heldBack: HeldBackFile[] }> {
  const kept: BranchWrite[] = [];
  const heldBack: HeldBackFile[] = [];
  for (const write of writes) {
    const reason = rules.approvalReason(write.path, write.repositoryPath, write.headContent, write.content);
    const file = reason === undefined ? undefined : { path: write.path, reason, message: needsApproval(write.path, reason).message };
    if (file === undefined || (approve && (await approve(file)))) kept.push(write);
    else heldBack.push(file);
  }
  return { writes: kept, heldBack };
}
