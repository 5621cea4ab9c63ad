/**
 * `agent-team apply <runId>`: a finished run's proposals, from the run history, written to the working
 * tree with the checks of `run --apply` (apply-changes.ts: only a completed run, only its completed tasks'
 * proposals, conflicts with the disk reported, a Ctrl-C stops between files), or with `--branch <name>`
 * committed on a new branch (apply-branch-command.ts). Exit codes as `run`'s: 0 done, 1 something not
 * applied, 2 an unknown run, a bad argument or no run history, or a foreign run (its run log does not
 * verify as the user's: run-log-signature.ts) without `--force`. A file several tasks changed is merged,
 * each task's change onto the earlier ones; a conflicted one is written only once `--take <taskId>` or
 * `--conflict-markers` says how; `--show` prints the changes as they would be applied and writes nothing;
 * `--hunk` / `--reject-hunk` decide single hunks by the numbers `--show` prints (apply-hunks.ts).
 */
import path from 'node:path';
import { type ChecksVerdictDetail, ConfigurationError, NodeWorkspace, recordedChangeSets, type RunLog } from '../engine/index.js';
import { applyRunChanges } from './apply-changes.js';
import { applyChosenHunks } from './apply-hunks.js';
import { showMerges } from './apply-show.js';
import { applyToBranchCommand } from './apply-branch-command.js';
import type { ApplyArguments } from './argument-types.js';
import { exitCodes } from './exit-codes.js';
import { existingRunLog, type HistoryRun, pendingFiles, readHistoryRun } from './history-run.js';
import { chosenPaths, refuseForeign, refuseUnknownTake } from './apply-refusals.js';
import { runHistoryDirectory } from './run-history.js';
import { terminalSafe, terminalSafeJson } from './terminal-text.js';
import { ApplyRefusedError, checksBeforeApply } from './apply-checks-gate.js';

type Output = { write(text: string): void };

export interface ApplyContext {
  stdout: Output;
  stderr: Output;
  environment: NodeJS.ProcessEnv;
  /** Aborted by Ctrl-C: no file is started after it. */
  signal: AbortSignal;
}

export async function applyCommand(args: ApplyArguments, context: ApplyContext): Promise<number> {
  const warn = (message: string) => context.stderr.write(`agent-team: ${terminalSafe(message)}\n`);
  const workspaceRoot = path.resolve(args.workspace);
  const runLog = await existingRunLog(workspaceRoot, warn);
  if (!runLog)
    throw new ConfigurationError(`${workspaceRoot} has no run history (${runHistoryDirectory}): there is no run ${args.runId} to apply.`);
  try {
    const run = await readHistoryRun(runLog, args.runId, warn);
    if (!run)
      throw new ConfigurationError(
        `There is no run ${args.runId} in ${runHistoryDirectory} (it may have been removed by the history's retention). agent-team runs lists the runs.`,
      );
    refuseForeign(run, args.force === true, warn);
    const paths = chosenPaths(args.files, run, workspaceRoot);
    refuseUnknownTake(args.take, run);
    let checks: ChecksVerdictDetail | undefined;
    try {
      checks = await checksBeforeApply(run.runId, workspaceRoot, { force: args.force === true, writes: !args.show, warn });
    } catch (error) {
      if (!(error instanceof ApplyRefusedError)) throw error;
      context.stderr.write(`agent-team: ${error.message}\n`);
      if (args.json) context.stdout.write(`${terminalSafeJson({ runId: run.runId, outcome: 'not-applied', reason: 'new-failures' })}\n`);
      return exitCodes.failed;
    }
    if (args.hunks || args.rejectHunks) return await applyChosenHunks(args, run, { runLog, workspaceRoot, ...context });
    if (args.show) return await showMerges(args, run, { workspaceRoot, paths, ...context });
    if (args.branch !== undefined)
      return await applyToBranchCommand({ ...args, branch: args.branch }, run, {
        runLog,
        workspaceRoot,
        paths,
        ...context,
        ...(checks ? { checks } : {}),
      });
    return await applyToWorkingTree(args, run, { runLog, workspaceRoot, paths, ...context });
  } finally {
    await runLog.close();
  }
}

async function applyToWorkingTree(
  args: ApplyArguments,
  run: HistoryRun,
  context: ApplyContext & { runLog: RunLog; workspaceRoot: string; paths: ReadonlySet<string> | undefined },
): Promise<number> {
  const report = args.json ? context.stderr : context.stdout;
  const proposed = run.changeSets.filter((changeSet) =>
    pendingFiles(changeSet).some((file) => !context.paths || context.paths.has(file.path)),
  );
  const result = (outcome: string, files: unknown[] = []) =>
    args.json && context.stdout.write(`${terminalSafeJson({ runId: run.runId, outcome, files })}\n`);
  if (proposed.length === 0) {
    report.write(`Run ${run.runId} has no pending proposals${context.paths ? ' for those files' : ''}; nothing to apply.\n`);
    result('nothing-to-apply');
    return exitCodes.completed;
  }
  if (!run.root) {
    report.write(`Run ${run.runId}'s root task is not in its file (a damaged line); nothing was applied.\n`);
    result('not-applied');
    return exitCodes.failed;
  }
  // Applied files are recorded in the run's file, so `agent-team runs` no longer lists them as pending.
  recordedChangeSets(context.runLog, proposed);
  const applied = await applyRunChanges(run.root, proposed, new NodeWorkspace(context.workspaceRoot), {
    signal: context.signal,
    output: report,
    taskOf: (taskId) => run.tasks.get(taskId),
    ...(context.paths ? { paths: context.paths } : {}),
    wording: { label: `apply ${run.runId}`, afterNote: '' },
    runId: run.runId,
    restorePoints: context.runLog,
    choice: { ...(args.take !== undefined ? { take: args.take } : {}), ...(args.conflictMarkers ? { conflictMarkers: true } : {}) },
  });
  result(
    applied.failed ? 'not-applied' : 'applied',
    applied.files.map((file) => ({ path: file.path, outcome: file.outcome, message: file.message })),
  );
  return applied.failed ? exitCodes.failed : exitCodes.completed;
}
