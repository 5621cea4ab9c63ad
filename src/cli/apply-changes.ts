/**
 * `--apply`: writes the proposed changes of a run that completed, file by file, so that a Ctrl-C stops
 * between two files (never inside one) and the user is told exactly what was written and what was not.
 * A run that failed or was stopped applies nothing: its edits may be half of a change. Within a run that
 * completed, only the proposals of tasks that completed are written; a failed or stopped subagent's are
 * listed as skipped, with why. `agent-team apply` (a run of the history) and its `--branch` go through the
 * same checks.
 */
import {
  AcceptCheckpoint,
  applyChangeSet,
  type ChangeSet,
  type FileApplyResult,
  type RestorePointSink,
  type TaskSnapshot,
  type Workspace,
  WorkspaceBytes,
} from '../engine/index.js';
import { completedProposals, type ProposalChecksWording } from './completed-proposals.js';
import { printApplyReport } from './changes-output.js';
import { type MergeChoice, planRunMerges } from './file-merges.js';
import { printMergeConflict } from './merge-output.js';
import { terminalSafe } from './terminal-text.js';

type Output = { write(text: string): void };

/**
 * `failed`: something could not be applied (a conflict, a sensitive file, a failure) or nothing was;
 * `files`: what happened to each file tried. A file several tasks change is merged in order, each onto
 * the earlier ones (file-merges.ts); where they conflict none of them is written (and the conflict is
 * printed with both sides) unless `choice` settles it. `runId` names the run in the commands suggested.
 */
export async function applyRunChanges(
  root: TaskSnapshot,
  changeSets: readonly ChangeSet[],
  workspace: Workspace,
  options: {
    signal: AbortSignal;
    output: Output;
    taskOf(taskId: string): TaskSnapshot | undefined;
    paths?: ReadonlySet<string>;
    wording?: ProposalChecksWording;
    /** The run's id in the commands a conflict suggests. Default: the root task's `rootId`. */
    runId?: string;
    /** How conflicts between tasks' proposals are settled. Default: not at all (nothing of such a file is written). */
    choice?: MergeChoice;
    /** Where the restore point of what is written goes (the run log), so `agent-team undo` can take it back. Default: none kept. */
    restorePoints?: RestorePointSink;
  },
): Promise<{ failed: boolean; files: FileApplyResult[] }> {
  const { output, signal } = options;
  const files: FileApplyResult[] = [];
  if (changeSets.length === 0) return { failed: false, files };
  const completed = completedProposals(root, changeSets, {
    interrupted: signal.aborted,
    output,
    taskOf: options.taskOf,
    ...(options.wording ? { wording: options.wording } : {}),
  });
  if (!completed) return { failed: true, files };
  let failed = false;
  const written: string[] = [];
  const writtenBy: string[] = [];
  const notWritten: string[] = [];
  for (const changeSet of completed) changeSet.accept();
  const checkpoint = options.restorePoints ? new AcceptCheckpoint(new WorkspaceBytes(workspace.root)) : undefined;
  const plans = await planRunMerges(completed, workspace, {
    ...(options.paths ? { paths: options.paths } : {}),
    ...(options.choice ? { choice: options.choice } : {}),
  });
  for (const plan of plans.values()) {
    if (!plan.blocked) continue;
    printMergeConflict(plan, output, options.runId ?? root.rootId);
    files.push({
      path: plan.path,
      outcome: 'conflict',
      message: `${plan.path}: the proposals of ${plan.steps.map((step) => `task ${step.taskId}`).join(' and ')} conflict; nothing was written.`,
    });
    failed = true;
  }
  for (const changeSet of completed) {
    for (const path of changeSet.openPaths()) {
      if (options.paths && !options.paths.has(path)) continue;
      const plan = plans.get(path);
      if (plan?.blocked) continue;
      if (signal.aborted) {
        notWritten.push(path);
        continue;
      }
      const step = plan?.steps.find((candidate) => candidate.taskId === changeSet.taskId);
      const settleConflicts = step?.conflict?.settledBy;
      const report = await applyChangeSet(changeSet, workspace, {
        paths: [path],
        ...(settleConflicts ? { settleConflicts } : {}),
        ...(step ? { labels: () => step.labels } : {}),
        ...(checkpoint ? { checkpoint } : {}),
      });
      printApplyReport(report, output);
      files.push(...report.files);
      for (const file of report.files) {
        if (file.outcome !== 'applied') failed = true;
        else {
          written.push(file.path);
          writtenBy.push(changeSet.taskId);
        }
      }
    }
  }
  if (checkpoint && options.restorePoints)
    await recordAccept(checkpoint, options.restorePoints, options.runId ?? root.rootId, writtenBy, output);
  if (notWritten.length > 0) {
    output.write(
      terminalSafe(`\nApplying stopped by Ctrl-C. Written: ${written.join(', ') || '(none)'}. Not written: ${notWritten.join(', ')}.`) +
        '\n',
    );
    failed = true;
  }
  return { failed, files };
}

/** The restore point of the files written, and how to take them back. */
async function recordAccept(
  checkpoint: AcceptCheckpoint,
  sink: RestorePointSink,
  runId: string,
  taskIds: readonly string[],
  output: Output,
): Promise<void> {
  if (await checkpoint.record(sink, runId, taskIds))
    output.write(terminalSafe(`To take back what was written: agent-team undo ${runId}`) + '\n');
}
