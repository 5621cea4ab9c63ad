/**
 * What a parent is told about a subagent's proposal to a file other tasks also change: whether the two
 * fit together (different lines: both can be applied, the later merged onto the earlier) or conflict
 * (lines changed by both: the user must pick one), so the coordinator can sequence work on one file.
 */
import { type ChangeSetRegistry } from './registry.js';
import { describeConflicts } from './merge-onto-disk.js';
import { mergeThreeWay } from './three-way.js';

/** ", overlaps with task t2 (…)" for `path` of `taskId`'s proposal; '' when no other task proposes it. */
export function describeOverlaps(changes: ChangeSetRegistry, taskId: string, path: string): string {
  const mine = changes.get(taskId);
  if (!mine?.isOpen(path)) return '';
  const others = changes.tasksProposing(path).filter((other) => other !== taskId);
  if (others.length === 0) return '';
  const notes = others.map((other) => `task ${other} (${fitWith(changes, taskId, other, path)})`);
  return `, overlaps with ${notes.join(', ')}`;
}

function fitWith(changes: ChangeSetRegistry, taskId: string, otherId: string, path: string): string {
  const mine = changes.get(taskId)!.fileChange(path);
  const other = changes.get(otherId)?.fileChange(path);
  // Two proposals can be compared line by line only from one base (both read the same file).
  if (!other || mine.baseContent === null || other.baseContent !== mine.baseContent)
    return 'from another version of the file: they may conflict; sequence work on one file';
  const merge = mergeThreeWay(path, mine.baseContent, other.proposedContent, mine.hunks);
  if (merge.conflicts.length === 0) return 'different lines: both can be applied';
  return `conflict: ${describeConflicts(merge.conflicts)} changed by both, and only one side can be applied; have one task redo its change on top of the other's, or give the file to one task`;
}
