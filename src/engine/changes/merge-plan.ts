/**
 * Several tasks' proposals for one file, merged in order before anything is written: the first onto the
 * file as it is, each next one onto what the earlier made, three-way and exact (three-way.ts). So a
 * caller knows before the first write whether the file's proposals fit together; where they do not, it
 * writes nothing of that file until the user picks a side (or asks for the marked file).
 */
import { type ChangeSet } from './change-set.js';
import { type ConflictSide, type MergeConflict, type MergeLabels, mergeThreeWay } from './three-way.js';

export interface MergeStep {
  taskId: string;
  /** The file before and after this task's accepted changes, merged onto the earlier steps' result. */
  before: string | null;
  after: string | null;
  /** The names of the two sides of a conflict at this step (the earlier tasks, or `on disk`; this task). */
  labels: MergeLabels;
  /** Both sides of each region this task and the earlier steps changed, and how it was settled (none: it stops the plan). */
  conflict?: { regions: readonly MergeConflict[]; marked: string; settledBy?: ConflictSide };
  /** Why this task's proposal cannot be merged at all (the file was deleted or created meanwhile). */
  refused?: string;
}

export interface MergePlan {
  path: string;
  steps: MergeStep[];
  /** True when a step has a conflict nobody settled, or was refused: nothing of the file may be written. */
  blocked: boolean;
}

/**
 * Plans `path` across `changeSets` (in the order given, those with an open proposal for it and accepted
 * hunks), from `disk` (the file now; null when absent). `settle` says how a conflict between a task and
 * the earlier ones is settled; undefined leaves it blocking.
 */
export function planFileMerge(
  path: string,
  changeSets: readonly ChangeSet[],
  disk: string | null,
  settle: (taskId: string, earlier: readonly string[]) => ConflictSide | undefined = () => undefined,
): MergePlan {
  const steps: MergeStep[] = [];
  const earlier: string[] = [];
  let running = disk;
  for (const changeSet of changeSets) {
    if (!changeSet.isOpen(path)) continue;
    const file = changeSet.fileChange(path);
    const accepted = file.acceptedHunks();
    if (accepted.length === 0) continue;
    const labels = { current: earlier.length > 0 ? `task ${earlier.join(', task ')}` : 'on disk', proposed: `task ${changeSet.taskId}` };
    const step: MergeStep = { taskId: changeSet.taskId, before: running, after: running, labels };
    steps.push(step);
    // The base's hash is its content's: comparing the texts says the same without hashing the file at every step (B17).
    if (running === file.baseContent) {
      step.after = file.resultContent();
    } else if (running === null || file.baseContent === null) {
      step.refused =
        running === null
          ? `${path} does not exist any more where task ${changeSet.taskId} changed it.`
          : `task ${changeSet.taskId} proposed ${path} as a new file, but it exists now.`;
      return { path, steps, blocked: true };
    } else {
      const merge = mergeThreeWay(path, file.baseContent, running, accepted);
      if (merge.conflicts.length === 0) {
        step.after = merge.resolved('proposed');
      } else {
        const side = settle(changeSet.taskId, earlier);
        step.conflict = { regions: merge.conflicts, marked: merge.resolved('markers', labels), ...(side ? { settledBy: side } : {}) };
        if (!side) return { path, steps, blocked: true };
        step.after = merge.resolved(side, labels);
      }
    }
    running = step.after;
    earlier.push(changeSet.taskId);
  }
  return { path, steps, blocked: false };
}
