/**
 * What a caller outside the process gets back from a run (the MCP server, the A2A server): the run's
 * result and the edits its tasks proposed, as unified diffs that were never applied.
 */
import { numberHunks } from '../changes/numbered-hunks.js';
import type { ChangeSetRegistry } from '../changes/registry.js';
import { formatTaskResult } from '../delegation/task-result-text.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { TaskSnapshot } from '../tasks/types.js';

/** The parts of an engine a protocol server reports from. */
export interface ReportedRuns {
  taskManager: TaskManager;
  changes: ChangeSetRegistry;
}

/** Diffs of the edits the run's tasks proposed and nobody applied or rejected, one block per file, hunks numbered as MCP's `apply_hunks` takes them. */
export function proposedDiffs(runs: ReportedRuns, rootId: string): string[] {
  return runs.changes
    .list()
    .filter((changeSet) => runs.taskManager.get(changeSet.taskId)?.rootId === rootId)
    .flatMap((changeSet) =>
      changeSet
        .snapshot()
        .files.filter((file) => file.status !== 'applied' && file.hunks.some((hunk) => hunk.decision !== 'rejected'))
        .map((file) => `Proposed by ${changeSet.taskId} (${changeSet.role}), not applied:\n${numberHunks(file.diff)}`),
    );
}

/** The run's result and, as unified diffs, the edits its tasks proposed (never applied). */
export function describeRun(runs: ReportedRuns, root: TaskSnapshot): string {
  return [formatTaskResult(root), ...proposedDiffs(runs, root.id)].join('\n\n');
}

/** The run's answer as an A2A message carries it: its output (or why it failed), then the diffs. */
export function runAnswer(runs: ReportedRuns, root: TaskSnapshot): string {
  return [
    root.status === 'failed' ? `The run failed: ${root.error ?? 'no reason given'}` : (root.output ?? ''),
    ...proposedDiffs(runs, root.id),
  ].join('\n\n');
}
