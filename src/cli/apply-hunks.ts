/**
 * `agent-team apply <runId> --hunk <file>:<n>[,<n>…] --reject-hunk <file>:<n>[,<n>…]`: single hunks of a
 * finished run's proposals, by the numbers `apply --show` prints, decided in the working tree with the
 * engine's hunk decisions (changes/numbered-hunks.ts), as VS Code's hunk lenses decide them. Only a
 * completed run's completed tasks' proposals (the checks of `--apply`). What is written keeps its restore
 * point (`agent-team undo`); what is left of a file stays proposed, rebased onto what was written, and the
 * rejected hunks are recorded in the run's file, so a later `apply` writes the rest without them.
 */
import path from 'node:path';
import {
  AcceptCheckpoint,
  decideNumberedHunks,
  type HunkDecisionResult,
  type HunkNumbers,
  NodeWorkspace,
  recordedChangeSets,
  type RunLog,
  WorkspaceBytes,
} from '../engine/index.js';
import { completedProposals } from './completed-proposals.js';
import type { ApplyArguments, HunkChoice } from './argument-types.js';
import { exitCodes } from './exit-codes.js';
import { type HistoryRun, pendingFiles } from './history-run.js';
import { terminalSafe, terminalSafeJson } from './terminal-text.js';

type Output = { write(text: string): void };

export async function applyChosenHunks(
  args: ApplyArguments,
  run: HistoryRun,
  context: { stdout: Output; stderr: Output; signal: AbortSignal; runLog: RunLog; workspaceRoot: string },
): Promise<number> {
  const report = args.json ? context.stderr : context.stdout;
  const json = (outcome: string, extra: Record<string, unknown> = {}) =>
    args.json && context.stdout.write(`${terminalSafeJson({ runId: run.runId, outcome, ...extra })}\n`);
  const completed = run.root
    ? completedProposals(
        run.root,
        run.changeSets.filter((changeSet) => pendingFiles(changeSet).length > 0),
        {
          interrupted: context.signal.aborted,
          output: report,
          taskOf: (taskId) => run.tasks.get(taskId),
          wording: { label: `apply ${run.runId} --hunk`, afterNote: '' },
        },
      )
    : undefined;
  if (!completed) {
    if (!run.root) report.write(`Run ${run.runId}'s root task is not in its file (a damaged line); nothing was applied.\n`);
    json('not-applied');
    return exitCodes.failed;
  }
  const workspace = new NodeWorkspace(context.workspaceRoot);
  // Decisions and rebases are recorded in the run's file as they happen: a later apply sees what is left.
  recordedChangeSets(context.runLog, completed);
  const checkpoint = new AcceptCheckpoint(new WorkspaceBytes(workspace.root));
  const decided = await decideNumberedHunks(completed, wantedHunks(args, context.workspaceRoot), workspace, {
    runId: run.runId,
    checkpoint,
  });
  if (decided.refused.length > 0) {
    report.write(`${terminalSafe(`Nothing was written or decided. Refused:\n${decided.refused.map((why) => `  ${why}`).join('\n')}`)}\n`);
    json('not-applied', { refused: decided.refused });
    return exitCodes.failed;
  }
  for (const file of decided.files) printDecision(file, run.runId, report);
  const writers = decided.files.filter((file) => file.outcome === 'applied').map((file) => file.taskId);
  if (await checkpoint.record(context.runLog, run.runId, writers))
    report.write(`${terminalSafe(`To take back what was written: agent-team undo ${run.runId}`)}\n`);
  const failed = decided.files.some((file) => file.outcome !== 'applied' && file.outcome !== 'rejected');
  json(failed ? 'not-applied' : 'applied', { files: decided.files });
  return failed ? exitCodes.failed : exitCodes.completed;
}

/** `--hunk` and `--reject-hunk` joined per file, each path as the run names it (workspace-relative, POSIX). */
function wantedHunks(args: ApplyArguments, workspaceRoot: string): HunkNumbers[] {
  const relative = (file: string) => path.relative(workspaceRoot, path.resolve(workspaceRoot, file)).split(path.sep).join('/');
  const byPath = new Map<string, { accept: number[]; reject: number[] }>();
  const add = (choices: readonly HunkChoice[], side: 'accept' | 'reject') => {
    for (const choice of choices) {
      const entry = byPath.get(relative(choice.path)) ?? { accept: [], reject: [] };
      entry[side].push(...choice.numbers);
      byPath.set(relative(choice.path), entry);
    }
  };
  add(args.hunks ?? [], 'accept');
  add(args.rejectHunks ?? [], 'reject');
  return [...byPath].map(([file, numbers]) => ({ path: file, ...numbers }));
}

function printDecision(file: HunkDecisionResult, runId: string, output: Output): void {
  const lines = [`${file.outcome}: ${file.path} — ${file.message}`];
  if (file.accepted.length > 0 && file.rejected.length > 0) lines.push(`  rejected hunk ${file.rejected.join(', ')} of ${file.path}`);
  if (file.stillProposed > 0)
    lines.push(
      `  still proposed: ${file.stillProposed} hunk${file.stillProposed === 1 ? '' : 's'} of ${file.path}, renumbered: agent-team apply ${runId} --show`,
    );
  output.write(`${terminalSafe(lines.join('\n'))}\n`);
}
