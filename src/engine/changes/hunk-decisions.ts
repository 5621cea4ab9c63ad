/**
 * Accepting and rejecting single hunks of a proposal, and rebasing what is left, for every host: the
 * extension's review (hunk lenses, Accept/Reject Hunk), `agent-team apply --hunk` and the MCP server's
 * `apply_hunks`. Accepting writes the chosen hunks at once (`applyChangeSet`: conflict-checked, the
 * restore point kept); the rest of the file's proposal stays up, rebuilt on top of what was written with
 * the rejected hunks left out, so a later decision on it (or applying the rest) starts from the disk.
 */
import { WorkspaceError } from '../errors.js';
import type { Workspace } from '../workspace/workspace.js';
import { applyChangeSet, type ApplyCheckpoint, type FileApplyResult } from './apply.js';
import type { ChangeSet } from './change-set.js';
import { diskContent } from './disk-content.js';
import type { FileChange } from './file-change.js';
import { contentHash } from './file-change.js';
import { contentWithoutRejected, hasPendingHunks } from './kept-content.js';

export interface HunkAcceptOptions {
  /** The file needs explicit approval (sensitive configuration) and the user gave it. Default false: such a file is not written. */
  approvedSensitive?: boolean;
  /** Keeps the accept's restore point (checkpoints/), so it can be undone. Default: none kept. */
  checkpoint?: ApplyCheckpoint;
  /**
   * A file changed on disk since the task read it: `merge` the accepted hunks onto it (three-way, as
   * accepting a whole file does; a conflict writes nothing), or `refuse` it by name, writing nothing (the
   * CLI and MCP: hunk numbers were shown against the proposal's base). Default `merge`.
   */
  whenStale?: 'merge' | 'refuse';
}

/**
 * The file's proposal, with each of `hunkIds` in it and still waiting for a decision. Throws `not-found`
 * (no such proposal) or `invalid` (a hunk decided, gone or never there: the proposal changed since shown).
 */
export function requirePendingHunks(changeSet: ChangeSet, path: string, hunkIds: readonly string[]): FileChange {
  if (!changeSet.paths().includes(path)) {
    throw new WorkspaceError('not-found', `Task ${changeSet.taskId} has no proposed change to ${path}.`, path);
  }
  const file = changeSet.fileChange(path);
  for (const hunkId of hunkIds) {
    const hunk = file.hunks.find((candidate) => candidate.id === hunkId);
    if (!hunk || file.decisionOf(hunk) !== 'pending' || file.status === 'applied') {
      throw new WorkspaceError(
        'invalid',
        `${path} has no pending change ${hunkId}; the proposal changed since it was shown. Review the current diff again.`,
        path,
      );
    }
  }
  return file;
}

/**
 * Accepts `hunkIds` of `path` and writes them now. Applied: hunks still pending stay proposed, rebased
 * onto what was written. Not applied (a conflict, a sensitive file not approved, a stale file refused):
 * the file's decisions go back to pending, nothing else changes, and the result says why.
 */
export async function acceptHunks(
  changeSet: ChangeSet,
  path: string,
  hunkIds: readonly string[],
  workspace: Workspace,
  options: HunkAcceptOptions = {},
): Promise<FileApplyResult> {
  const before = requirePendingHunks(changeSet, path, hunkIds);
  if (options.whenStale === 'refuse') {
    const stale = await whyStale(before, workspace);
    if (stale) return { path, outcome: 'conflict', message: stale };
  }
  for (const hunkId of hunkIds) changeSet.accept({ path, hunkId });
  const file = changeSet.fileChange(path);
  const remaining = contentWithoutRejected(file);
  const stillPending = hasPendingHunks(file);
  const written = file.resultContent();
  const report = await applyChangeSet(changeSet, workspace, {
    paths: [path],
    ...(options.approvedSensitive ? { approvedSensitive: [path] } : {}),
    ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}),
  });
  const result = report.files[0] ?? { path, outcome: 'failed' as const, message: `${path}: nothing was written.` };
  if (result.outcome !== 'applied') {
    if (changeSet.file(path)?.status === 'pending') changeSet.decide('pending', { path });
    return result;
  }
  // What was written is the new base; what is still proposed is the old base's kept hunks (no rejected one).
  if (stillPending && remaining !== undefined && written !== null)
    changeSet.rebase(path, { baseContent: written, proposedContent: remaining });
  return result;
}

/** Rejects `hunkIds` of `path`; while other hunks still wait, the proposal is rebuilt without them. */
export function rejectHunks(changeSet: ChangeSet, path: string, hunkIds: readonly string[]): void {
  requirePendingHunks(changeSet, path, hunkIds);
  for (const hunkId of hunkIds) changeSet.reject({ path, hunkId });
  const file = changeSet.fileChange(path);
  const remaining = contentWithoutRejected(file);
  if (hasPendingHunks(file) && file.baseContent !== null && remaining !== undefined) {
    changeSet.rebase(path, { baseContent: file.baseContent, proposedContent: remaining });
  }
}

/** Why the file on disk is no longer the proposal's base (named), or undefined when it still is. */
export async function whyStale(file: FileChange, workspace: Workspace): Promise<string | undefined> {
  const now = await diskContent(workspace, file.path);
  if (now === undefined) return `${file.path} could not be read to check that it is still as proposed; nothing was written.`;
  if ((now === null ? null : contentHash(now)) === file.baseHash) return undefined;
  return `${file.path} changed on disk since its change was proposed; its hunks were numbered against the file as it was, so nothing was written. Apply the whole file (it is merged onto the disk), or look at its proposal again.`;
}
