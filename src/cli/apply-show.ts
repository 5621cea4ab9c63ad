/**
 * `agent-team apply <runId> --show`: the run's pending proposals of completed tasks as they would be
 * applied now, file by file, each task's change rebased onto the earlier tasks' changes to that file,
 * and each conflict with both sides. Writes nothing; exits 0 (1 when the run cannot be applied at all).
 */
import { type ChangeSet, type FileChangeSnapshot, type MergePlan, type MergeStep, NodeWorkspace } from '../engine/index.js';
import { completedProposals } from './completed-proposals.js';
import type { ApplyArguments } from './argument-types.js';
import { useColor } from './changes-output.js';
import { exitCodes } from './exit-codes.js';
import { planRunMerges } from './file-merges.js';
import { type HistoryRun, pendingFiles } from './history-run.js';
import { printMergePlan } from './merge-output.js';
import { terminalSafe, terminalSafeJson } from './terminal-text.js';

type Output = { write(text: string): void; isTTY?: boolean };

export async function showMerges(
  args: ApplyArguments,
  run: HistoryRun,
  context: {
    stdout: Output;
    stderr: Output;
    environment: NodeJS.ProcessEnv;
    workspaceRoot: string;
    paths: ReadonlySet<string> | undefined;
  },
): Promise<number> {
  const report = args.json ? context.stderr : context.stdout;
  const wanted = (file: FileChangeSnapshot) => !context.paths || context.paths.has(file.path);
  const proposed = run.changeSets.filter((changeSet) => pendingFiles(changeSet).some(wanted));
  const completed = run.root
    ? completedProposals(run.root, proposed, {
        interrupted: false,
        output: report,
        taskOf: (taskId) => run.tasks.get(taskId),
        wording: { label: `apply ${run.runId} --show`, afterNote: '' },
      })
    : undefined;
  if (!completed) return exitCodes.failed;
  // As applying would: every change of a completed task's pending proposal is taken.
  for (const changeSet of completed) for (const file of pendingFiles(changeSet)) if (wanted(file)) changeSet.accept({ path: file.path });
  const plans = await planRunMerges(completed, new NodeWorkspace(context.workspaceRoot), {
    ...(context.paths ? { paths: context.paths } : {}),
    every: true,
  });
  if (plans.size === 0)
    report.write(`Run ${run.runId} has no pending proposals of completed tasks${context.paths ? ' for those files' : ''}.\n`);
  const colors = !args.json && useColor(context.stdout, context.environment);
  for (const plan of plans.values()) printMergePlan(plan, report, colors, (step) => isOwnProposal(plan, step, completed));
  const conflicted = [...plans.values()].filter((plan) => plan.blocked).map((plan) => plan.path);
  report.write(
    terminalSafe(
      `\nNothing was written.${conflicted.length > 0 ? ` In conflict: ${conflicted.join(', ')} (settle with --take <taskId> or --conflict-markers).` : ''}`,
    ) + '\n',
  );
  if (args.json) {
    const files = [...plans.values()].map((plan) => ({
      path: plan.path,
      outcome: plan.blocked ? 'conflict' : 'would-apply',
      tasks: plan.steps.map((step) => ({ taskId: step.taskId, ...(step.conflict ? { conflicts: step.conflict.regions.length } : {}) })),
    }));
    context.stdout.write(`${terminalSafeJson({ runId: run.runId, outcome: 'shown', files })}\n`);
  }
  return exitCodes.completed;
}

/**
 * A file one task alone proposes, on disk still as the task read it: its diff is the proposal's own, and
 * its hunks are numbered for `--hunk`. Otherwise (merged with other tasks', or the file changed since)
 * the numbers would not say which hunk of the proposal is meant, so none are shown.
 */
function isOwnProposal(plan: MergePlan, step: MergeStep, changeSets: readonly ChangeSet[]): boolean {
  if (plan.steps.length !== 1) return false;
  const file = changeSets.find((changeSet) => changeSet.taskId === step.taskId)?.fileChange(plan.path);
  return file !== undefined && step.before === file.baseContent && step.after === file.resultContent();
}
