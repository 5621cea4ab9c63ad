/**
 * "The base without the rejected hunks": what accepting everything of a proposal that the user has not
 * rejected would write. One definition for every place that needs it (the review's rebase after a hunk
 * decision, the checks' view of a run's proposals, a branch's files), so they cannot drift apart.
 */
import type { FileChange } from './file-change.js';
import { applyHunks } from './hunks.js';

/**
 * The base plus every hunk not rejected (a new file: the proposal itself). undefined when every hunk is
 * rejected: nothing of the proposal would be written.
 */
export function contentWithoutRejected(file: FileChange): string | undefined {
  const kept = (hunk: FileChange['hunks'][number]) => file.decisionOf(hunk) !== 'rejected';
  const keptCount = file.hunks.filter(kept).length;
  if (file.hunks.length > 0 && keptCount === 0) return undefined;
  if (file.baseContent === null || keptCount === file.hunks.length) return file.proposedContent;
  return applyHunks(file.baseContent, file.hunks, kept);
}

/** True while some hunk of the file waits for a decision. */
export function hasPendingHunks(file: FileChange): boolean {
  return file.status === 'pending' && file.hunks.some((hunk) => file.decisionOf(hunk) === 'pending');
}
