/**
 * What a branch gets from a run's proposals: per file, the content it was proposed against (the base) and
 * the content to commit. The hunks a person rejected stay out; the rest (accepted, applied, or not yet
 * reviewed) go in, so a branch made after a partial review holds what the review kept. A file whose
 * every hunk was rejected is left out.
 */
import type { ChangeSet } from '../changes/change-set.js';
import { contentWithoutRejected } from '../changes/kept-content.js';

export interface BranchFile {
  /** Workspace-relative POSIX path. */
  path: string;
  /** The task that proposed it. */
  taskId: string;
  /** The content the proposal was made against; null for a new file. */
  baseContent: string | null;
  /** What the branch gets. */
  content: string;
  /** Set when the proposal was made through a symbolic link (a branch never writes through one). */
  target?: string;
  added: number;
  removed: number;
}

/** The files of these change sets, limited to `paths` when given, in the sets' order then path order. */
export function branchFilesOf(changeSets: readonly ChangeSet[], paths?: ReadonlySet<string>): BranchFile[] {
  const files: BranchFile[] = [];
  for (const changeSet of changeSets) {
    for (const path of changeSet.paths()) {
      if (paths && !paths.has(path)) continue;
      const file = changeSet.fileChange(path);
      const kept = file.hunks.filter((hunk) => file.decisionOf(hunk) !== 'rejected');
      if (kept.length === 0) continue;
      const content = contentWithoutRejected(file) ?? file.proposedContent;
      files.push({
        path,
        taskId: changeSet.taskId,
        baseContent: file.baseContent,
        content,
        ...(file.target !== undefined ? { target: file.target } : {}),
        added: kept.reduce((sum, hunk) => sum + hunk.added, 0),
        removed: kept.reduce((sum, hunk) => sum + hunk.removed, 0),
      });
    }
  }
  return files;
}
