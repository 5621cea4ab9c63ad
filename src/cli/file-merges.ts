/**
 * Files that several tasks of a run propose to change, planned before anything is written (merge-plan.ts):
 * merged in the run's order, each onto the earlier ones, exactly. A file whose proposals conflict is
 * written by none of them until the user picks: `--take <taskId>` settles each conflict on that task's
 * side, `--conflict-markers` writes both sides between markers to edit by hand.
 */
import { type ChangeSet, type ConflictSide, diskContent, type MergePlan, planFileMerge, type Workspace } from '../engine/index.js';

/** How the user settles conflicts between tasks. Default: not at all (nothing of a conflicted file is written). */
export interface MergeChoice {
  /** `--take <taskId>`: that task's side of every conflict it is in. */
  take?: string;
  /** `--conflict-markers`: both sides of every conflict, between markers. */
  conflictMarkers?: boolean;
}

/**
 * The plan of each file `changeSets` propose (only those more than one proposes, unless `every`), from
 * the file as it is now. A file that cannot be read is left out: applying it reports why.
 */
export async function planRunMerges(
  changeSets: readonly ChangeSet[],
  workspace: Workspace,
  options: { paths?: ReadonlySet<string>; choice?: MergeChoice; every?: boolean },
): Promise<Map<string, MergePlan>> {
  const proposers = new Map<string, number>();
  for (const changeSet of changeSets) {
    for (const path of changeSet.openPaths())
      if (!options.paths || options.paths.has(path)) proposers.set(path, (proposers.get(path) ?? 0) + 1);
  }
  const plans = new Map<string, MergePlan>();
  for (const [path, count] of [...proposers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (count < 2 && !options.every) continue;
    const disk = await diskContent(workspace, path);
    if (disk === undefined) continue;
    plans.set(path, planFileMerge(path, changeSets, disk, settlerOf(options.choice ?? {})));
  }
  return plans;
}

function settlerOf(choice: MergeChoice): (taskId: string, earlier: readonly string[]) => ConflictSide | undefined {
  return (taskId, earlier) => {
    if (choice.conflictMarkers) return 'markers';
    if (choice.take === taskId) return 'proposed';
    if (choice.take !== undefined && earlier.includes(choice.take)) return 'current';
    return undefined;
  };
}
