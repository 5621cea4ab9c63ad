import { errorMessage, WorkspaceError } from '../errors.js';
import { type RealPath, type Workspace } from '../workspace/workspace.js';
import { type ChangeSet, type RebaseProposal } from './change-set.js';
import { contentHash } from './file-change.js';
import { mergeOntoDisk } from './merge-onto-disk.js';
import { type ConflictSide, type MergeConflict, type MergeLabels } from './three-way.js';

export interface ApplyOptions {
  /**
   * Files that need explicit approval (`requiresApproval`) and were approved one by one. Files not
   * listed are reported `needs-approval` and not written. Default: none approved.
   */
  approvedSensitive?: Iterable<string>;
  /** Apply only these files. Default: every open file of the set. */
  paths?: Iterable<string>;
  /**
   * How a file that changed on disk since the task read it is written when some accepted hunk touches
   * lines changed there: keep the disk's side of each conflict, take the proposal's, or write both between
   * conflict markers. Default: not at all (the conflict is reported, nothing is written). A file whose
   * hunks touch nothing changed on disk is merged and written whatever this says.
   */
  settleConflicts?: ConflictSide;
  /** Names of the two sides of a conflict. Default: `on disk` and `task <taskId>`. */
  labels?: (path: string) => MergeLabels;
  /** Told right before and right after each file is written, to keep a restore point (checkpoints/). Default: none. */
  checkpoint?: ApplyCheckpoint;
}

/** What keeps an accept's restore point: the content of each file before it is written, and after. */
export interface ApplyCheckpoint {
  /** Throws when the content before cannot be kept: the file is then not written (it could not be undone). */
  beforeWrite(path: string): Promise<void>;
  afterWrite(path: string): Promise<void>;
}

export type ApplyOutcome = 'applied' | 'conflict' | 'skipped' | 'needs-approval' | 'failed';

export interface FileApplyResult {
  path: string;
  outcome: ApplyOutcome;
  /** What happened, for the user. */
  message: string;
  /**
   * For a conflict whose accepted hunks still apply cleanly to the current disk content: that content
   * plus those hunks. Adopt it with `changeSet.rebase(path, rebase)` to review it again.
   */
  rebase?: RebaseProposal & { diff: string };
  /** For a conflict: the regions both the disk and the proposal changed, each with both sides. */
  conflicts?: { labels: MergeLabels; regions: readonly MergeConflict[] };
}

export interface ApplyReport {
  taskId: string;
  files: FileApplyResult[];
}

/**
 * Writes each file's accepted content (base + accepted hunks) to the workspace, checking first that the
 * file on disk is still the base the hunks were computed against. A file that changed on disk (another
 * task's proposal written first, say) gets the accepted hunks merged three-way onto it, exactly
 * (merge-onto-disk.ts): written when no hunk touches a line changed there, else not written at all and
 * its conflict reported with both sides (unless `settleConflicts` says how to settle it).
 * Files without accepted hunks are skipped; files needing approval are written only when approved.
 * Files are independent: one file's conflict or failure does not stop the others.
 *
 * Each path is resolved again right before its write, and the policy checked again on where it leads
 * now: a symbolic link swapped in since the proposal (`src -> .git/hooks`) must not redirect the write.
 * A path that leads elsewhere than when it was proposed is a conflict; nothing is written to it.
 */
export async function applyChangeSet(changeSet: ChangeSet, workspace: Workspace, options: ApplyOptions = {}): Promise<ApplyReport> {
  const approved = new Set(options.approvedSensitive ?? []);
  const paths = options.paths ? [...options.paths] : changeSet.openPaths();
  const files: FileApplyResult[] = [];
  for (const path of paths) files.push(await applyFile(changeSet, workspace, path, approved, options));
  return { taskId: changeSet.taskId, files };
}

async function applyFile(
  changeSet: ChangeSet,
  workspace: Workspace,
  path: string,
  approved: Set<string>,
  options: ApplyOptions,
): Promise<FileApplyResult> {
  if (!changeSet.paths().includes(path))
    return { path, outcome: 'skipped', message: `Task ${changeSet.taskId} proposed no change to ${path}.` };
  const file = changeSet.fileChange(path);
  if (file.status === 'applied') return { path, outcome: 'skipped', message: `${path} was already applied.` };
  const accepted = file.acceptedHunks();
  if (accepted.length === 0) {
    const rejected = file.hunks.every((hunk) => file.decisionOf(hunk) === 'rejected');
    return { path, outcome: 'skipped', message: `${path}: ${rejected ? 'all changes rejected' : 'no change accepted'}; left as it is.` };
  }
  let real: RealPath;
  try {
    real = await workspace.realPath(path);
  } catch (error) {
    return {
      path,
      outcome: 'conflict',
      message: `${path} cannot be written where it leads now: ${errorMessage(error)} Nothing was written.`,
    };
  }
  const proposedTarget = file.target ?? path;
  if (real.path !== proposedTarget || real.dangling) {
    const now = real.dangling ? `${real.path}, which does not exist` : real.path;
    return {
      path,
      outcome: 'conflict',
      message: `${path} now leads to ${now}, but led to ${proposedTarget} when the change was proposed (a symbolic link changed); nothing was written.`,
    };
  }
  try {
    changeSet.rules.assertWritable(path, real.path);
  } catch (error) {
    if (!(error instanceof WorkspaceError)) throw error;
    return { path, outcome: 'failed', message: error.message };
  }
  let current: string | null;
  try {
    current = (await workspace.stat(path)) === null ? null : await workspace.readText(real.path);
  } catch (error) {
    return { path, outcome: 'failed', message: `${path} could not be read to check for conflicts: ${errorMessage(error)}` };
  }
  const currentHash = current === null ? null : contentHash(current);
  let content = file.resultContent();
  let mergeNote = '';
  if (currentHash !== file.baseHash) {
    const labels = options.labels?.(path) ?? { current: 'on disk', proposed: `task ${changeSet.taskId}` };
    const merge = mergeOntoDisk(file, current, accepted, {
      labels,
      ...(options.settleConflicts ? { settle: options.settleConflicts } : {}),
    });
    if (!('content' in merge)) return { path, outcome: 'conflict', ...merge };
    content = merge.content;
    mergeNote = merge.note;
  }
  if (content === null) return { path, outcome: 'skipped', message: `${path}: creation not accepted.` };
  // Judged on what would be written now (the accepted hunks only) under both names: a manifest whose
  // accepted hunks bump a dependency but leave its scripts alone needs no approval.
  const reason = approved.has(path) ? undefined : changeSet.rules.approvalReason(path, real.path, current, content);
  if (reason !== undefined) return needsApproval(path, reason);
  try {
    await options.checkpoint?.beforeWrite(path);
  } catch (error) {
    return {
      path,
      outcome: 'failed',
      message: `${path}: its content could not be kept for an undo (${errorMessage(error)}); nothing was written.`,
    };
  }
  try {
    await workspace.writeText(path, content);
  } catch (error) {
    return { path, outcome: 'failed', message: `${path} could not be written: ${errorMessage(error)}` };
  }
  await options.checkpoint?.afterWrite(path);
  changeSet.markApplied(path);
  const total = file.hunks.length;
  return {
    path,
    outcome: 'applied',
    message: `${path}: applied ${accepted.length} of ${total} change${total === 1 ? '' : 's'}${mergeNote}.`,
  };
}

/** The working-tree apply's report of a file held back for approval; "apply to a branch" says it the same way. */
export function needsApproval(path: string, reason: string): FileApplyResult {
  return {
    path,
    outcome: 'needs-approval',
    message: `${path} needs explicit approval (${reason}); it is applied only when approved on its own, whatever auto-apply says.`,
  };
}
