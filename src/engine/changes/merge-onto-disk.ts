/**
 * What `applyChangeSet` does with a file that changed on disk since the task read it: the accepted hunks
 * merged three-way onto the disk's content (three-way.ts). A clean merge is written; a conflict is
 * reported with both sides and a rebased proposal (the merged file, both sides of each conflict between
 * markers) to review and edit, unless the caller said how to settle it.
 */
import { type RebaseProposal } from './change-set.js';
import { type FileChange } from './file-change.js';
import { computeHunks, formatUnifiedDiff, type Hunk } from './hunks.js';
import { type ConflictSide, type MergeConflict, type MergeLabels, mergeThreeWay } from './three-way.js';

export interface MergedContent {
  content: string;
  /** Follows "applied N of M changes" in the report. */
  note: string;
}

/** Why nothing was written (the apply reports it as a conflict), with the marked file to review when there is one. */
export interface MergeRefusal {
  message: string;
  rebase?: RebaseProposal & { diff: string };
  conflicts?: { labels: MergeLabels; regions: readonly MergeConflict[] };
}

export function mergeOntoDisk(
  file: FileChange,
  current: string | null,
  accepted: readonly Hunk[],
  options: { labels: MergeLabels; settle?: ConflictSide },
): MergedContent | MergeRefusal {
  const path = file.path;
  if (current === null) {
    return { message: `${path} was deleted on disk after the task read it; nothing was written.` };
  }
  if (file.baseContent === null) {
    return { message: `${path} was created on disk after the task proposed it as a new file; nothing was written.` };
  }
  const merge = mergeThreeWay(path, file.baseContent, current, accepted);
  if (merge.conflicts.length === 0) {
    return {
      content: merge.resolved('proposed'),
      note: `, merged with the changes made on disk since the task read it (${options.labels.current}; no line changed by both)`,
    };
  }
  if (options.settle) {
    const how =
      options.settle === 'markers'
        ? 'both sides written between conflict markers, to edit by hand'
        : `${options.settle === 'current' ? options.labels.current : options.labels.proposed}'s side taken`;
    return {
      content: merge.resolved(options.settle, options.labels),
      note: `, merged with the changes on disk; ${describeConflicts(merge.conflicts)}: ${how}`,
    };
  }
  const marked = merge.resolved('markers', options.labels);
  return {
    message: `${path} changed on disk since the task read it (${options.labels.current}) and ${describeConflicts(merge.conflicts)} changed by both ${options.labels.current} and ${options.labels.proposed}; nothing was written. Pick a side or edit the merged file (both sides between conflict markers).`,
    rebase: { baseContent: current, proposedContent: marked, diff: formatUnifiedDiff(path, false, computeHunks(path, current, marked)) },
    conflicts: { labels: options.labels, regions: merge.conflicts },
  };
}

/** "lines 5–9 were" / "line 5 was" / "2 regions (lines 5–9, 30) were", numbered as in the base both sides started from. */
export function describeConflicts(conflicts: readonly MergeConflict[]): string {
  const ranges = conflicts.map((conflict) => {
    const last = conflict.baseStart + Math.max(conflict.baseLines, 1) - 1;
    return last === conflict.baseStart ? `line ${conflict.baseStart}` : `lines ${conflict.baseStart}–${last}`;
  });
  if (conflicts.length > 1) return `${conflicts.length} regions (${ranges.join(', ')}) were`;
  return `${ranges[0]} ${ranges[0]!.startsWith('lines') ? 'were' : 'was'}`;
}
