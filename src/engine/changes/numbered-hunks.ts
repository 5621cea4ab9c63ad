/**
 * Hunks chosen by number, for the hosts without an editor: `agent-team apply --hunk` and the MCP server's
 * `apply_hunks`. A file's hunks are numbered from 1 in file order, as the diffs they print say
 * (`@@ -7,7 +7,8 @@ hunk 2`). Every choice is checked before anything is decided or written: an unknown
 * file, a number out of range, a file several tasks propose (its hunks are merged first, so one task's
 * numbers would not say what lands) or a file changed on disk since is refused, by name, and nothing moves.
 */
import { ConfigurationError } from '../errors.js';
import type { Workspace } from '../workspace/workspace.js';
import type { ApplyCheckpoint, ApplyOutcome } from './apply.js';
import type { ChangeSet } from './change-set.js';
import { acceptHunks, rejectHunks, whyStale } from './hunk-decisions.js';

/** What the user asked of one file: hunk numbers to write and to reject. */
export interface HunkNumbers {
  path: string;
  accept: readonly number[];
  reject: readonly number[];
}

export interface HunkDecisionResult {
  path: string;
  taskId: string;
  accepted: readonly number[];
  rejected: readonly number[];
  /** What came of the accepted hunks (`rejected` when only hunks were rejected). */
  outcome: ApplyOutcome | 'rejected';
  message: string;
  /** Hunks of the file still waiting for a decision afterwards (renumbered from 1 on what was written). */
  stillProposed: number;
}

/** `refused`: files changed on disk since they were proposed, each said by name; nothing was decided or written then. */
export type HunkDecisions = { refused: string[]; files: [] } | { refused: []; files: HunkDecisionResult[] };

interface Chosen extends HunkNumbers {
  changeSet: ChangeSet;
}

/** Numbers each hunk header of a unified diff (`@@ … @@ hunk 2`), as `--hunk` and `apply_hunks` take them. */
export function numberHunks(diff: string): string {
  let number = 0;
  return diff.replace(/^(@@ [^\n]*? @@)(.*)$/gm, (_, header: string, rest: string) => `${header} hunk ${++number}${rest}`);
}

/** Decides the chosen hunks of `changeSets` (those the user may decide: a run's completed tasks' proposals). */
export async function decideNumberedHunks(
  changeSets: readonly ChangeSet[],
  wanted: readonly HunkNumbers[],
  workspace: Workspace,
  options: { runId: string; checkpoint?: ApplyCheckpoint },
): Promise<HunkDecisions> {
  const chosen = wanted.map((choice) => choose(changeSets, choice, options.runId));
  const refused: string[] = [];
  for (const choice of chosen) {
    if (choice.accept.length === 0) continue;
    const stale = await whyStale(choice.changeSet.fileChange(choice.path), workspace);
    if (stale !== undefined) refused.push(stale);
  }
  if (refused.length > 0) return { refused, files: [] };
  const files: HunkDecisionResult[] = [];
  for (const choice of chosen) files.push(await decide(choice, workspace, options.checkpoint));
  return { refused: [], files };
}

async function decide(choice: Chosen, workspace: Workspace, checkpoint: ApplyCheckpoint | undefined): Promise<HunkDecisionResult> {
  const { changeSet, path } = choice;
  const hunks = changeSet.fileChange(path).hunks;
  const idsOf = (numbers: readonly number[]) => numbers.map((number) => hunks[number - 1]!.id);
  const acceptIds = idsOf(choice.accept);
  // Rejected first: that only rebuilds the proposal on the same base, so the accepted hunks keep their ids.
  if (choice.reject.length > 0) rejectHunks(changeSet, path, idsOf(choice.reject));
  const result =
    acceptIds.length > 0
      ? await acceptHunks(changeSet, path, acceptIds, workspace, { whenStale: 'refuse', ...(checkpoint ? { checkpoint } : {}) })
      : {
          outcome: 'rejected' as const,
          message: `${path}: rejected hunk ${choice.reject.join(', ')}; the rest stays proposed without it.`,
        };
  const file = changeSet.fileChange(path);
  const stillProposed = file.status === 'applied' ? 0 : file.hunks.filter((hunk) => file.decisionOf(hunk) === 'pending').length;
  return { path, taskId: changeSet.taskId, accepted: choice.accept, rejected: choice.reject, ...result, stillProposed };
}

/** The one task whose pending proposal the numbers are of, every number checked against it. */
function choose(changeSets: readonly ChangeSet[], choice: HunkNumbers, runId: string): Chosen {
  const proposers = changeSets.filter((changeSet) => changeSet.isOpen(choice.path));
  if (proposers.length === 0) {
    const open = [...new Set(changeSets.flatMap((changeSet) => changeSet.openPaths()))].sort();
    throw new ConfigurationError(
      `Run ${runId} has no pending proposal to ${choice.path} whose hunks can be chosen. Pending: ${open.join(', ') || 'none'}. Nothing was written.`,
    );
  }
  if (proposers.length > 1) {
    throw new ConfigurationError(
      `${choice.path} is proposed by ${proposers.map((changeSet) => `task ${changeSet.taskId}`).join(' and ')}: their changes are merged first, so one task's hunk numbers would not say what lands. Apply the file whole instead. Nothing was written.`,
    );
  }
  const changeSet = proposers[0]!;
  const file = changeSet.fileChange(choice.path);
  for (const number of [...choice.accept, ...choice.reject]) {
    const hunk = file.hunks[number - 1];
    if (!hunk) {
      const count = file.hunks.length;
      throw new ConfigurationError(
        `${choice.path} has no hunk ${number}: run ${runId}'s proposal to it has ${count} hunk${count === 1 ? '' : 's'} (numbered 1 to ${count} in its diff). Nothing was written.`,
      );
    }
    if (file.decisionOf(hunk) !== 'pending')
      throw new ConfigurationError(`Hunk ${number} of ${choice.path} was already ${file.decisionOf(hunk)}. Nothing was written.`);
  }
  return { ...choice, changeSet };
}
