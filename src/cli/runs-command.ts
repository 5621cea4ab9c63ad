/**
 * `agent-team runs`: the workspace's run history, newest first, each run with what is still waiting to be
 * applied (per task, the files and their +/- counts), so `agent-team apply <runId>` can be aimed without
 * opening the run files. `--json`: one object per run per line. A run whose log does not verify as the
 * user's (run-log-signature.ts) is marked foreign (`foreign: true` and `foreignReason` in JSON).
 */
import path from 'node:path';
import { describeForeign, formatCost, type RunSummary, terminalStatuses } from '../engine/index.js';
import type { RunsArguments } from './argument-types.js';
import { existingRunLog, type HistoryRun, pendingFiles, readHistoryRun } from './history-run.js';
import { runHistoryDirectory } from './run-history.js';
import { isRunHeld } from './run-locks.js';
import { terminalSafe, terminalSafeJson } from './terminal-text.js';

type Output = { write(text: string): void };

export interface RunListing {
  runId: string;
  status: string;
  description: string;
  role: string;
  createdAt: string;
  updatedAt: string;
  /** Absent when no price was known. */
  costUsd?: number;
  /** True when its run log does not verify as written by this user's agent-team in this folder (planted, edited, older). */
  foreign: boolean;
  /** Why, when foreign. */
  foreignReason?: string;
  proposals: Array<{ taskId: string; role: string; taskStatus: string; files: Array<{ path: string; added: number; removed: number }> }>;
}

export async function runsCommand(args: RunsArguments, output: { stdout: Output; stderr: Output }): Promise<number> {
  const warn = (message: string) => output.stderr.write(`agent-team: ${terminalSafe(message)}\n`);
  const runLog = await existingRunLog(args.workspace, warn);
  if (!runLog) {
    if (!args.json) output.stdout.write(`No runs: ${terminalSafe(args.workspace)} has no run history (${runHistoryDirectory}) yet.\n`);
    return 0;
  }
  try {
    const summaries = runLog.runs();
    if (summaries.length === 0 && !args.json) output.stdout.write('No runs in the run history.\n');
    for (const summary of summaries) {
      const listing = withLiveness(
        listingOf(summary, await readHistoryRun(runLog, summary.runId, warn)),
        path.join(args.workspace, ...runHistoryDirectory.split('/')),
      );
      output.stdout.write(args.json ? `${terminalSafeJson(listing)}\n` : terminalSafe(describe(listing)));
    }
    return 0;
  } finally {
    await runLog.close();
  }
}

function listingOf(summary: RunSummary, run: HistoryRun | undefined): RunListing {
  const cost = run?.root?.treeCost;
  const signature = run?.contents.signature ?? { status: 'foreign', reason: 'unsigned' };
  // The index is not signed: a signed run's own root says what it is.
  const root = signature.status === 'signed' ? run?.root : undefined;
  return {
    runId: summary.runId,
    status: root?.status ?? summary.status,
    description: root?.description ?? summary.description,
    role: root?.role ?? summary.role,
    createdAt: new Date(summary.createdAt).toISOString(),
    updatedAt: new Date(summary.updatedAt).toISOString(),
    ...(cost && cost.unpricedTokens === 0 ? { costUsd: cost.usd } : {}),
    foreign: signature.status !== 'signed',
    ...(signature.status === 'signed' ? {} : { foreignReason: describeForeign(signature) }),
    proposals: (run?.changeSets ?? [])
      .map((changeSet) => ({
        taskId: changeSet.taskId,
        role: changeSet.role,
        taskStatus: run?.tasks.get(changeSet.taskId)?.status ?? 'unknown',
        files: pendingFiles(changeSet).map((file) => ({ path: file.path, added: file.added, removed: file.removed })),
      }))
      .filter((proposal) => proposal.files.length > 0),
  };
}

/**
 * A run the log shows unfinished whose process is gone (killed, crashed: no live process holds its lock)
 * is `interrupted`, as the sidebar shows it: it is not running, and `--resume` goes on with it.
 */
function withLiveness(listing: RunListing, directory: string): RunListing {
  if ((terminalStatuses as ReadonlySet<string>).has(listing.status) || isRunHeld(directory, listing.runId)) return listing;
  return { ...listing, status: 'interrupted' };
}

function describe(run: RunListing): string {
  const when = run.createdAt.slice(0, 16).replace('T', ' ');
  const cost = run.costUsd === undefined ? '' : ` · ${formatCost({ usd: run.costUsd, unpricedTokens: 0 })}`;
  const lines = [`${run.runId}  ${run.status}  ${when} UTC  ${run.description.replace(/\s+/g, ' ').trim()}${cost}`];
  if (run.foreign) lines.push(`    foreign: ${run.foreignReason ?? 'not written by you'}; not resumed or applied without --force`);
  if (run.proposals.length === 0) lines.push('    no pending proposals');
  for (const proposal of run.proposals) {
    const files = proposal.files.map((file) => `${file.path} (+${file.added} −${file.removed})`).join(', ');
    const note = proposal.taskStatus === 'completed' ? '' : ` [${proposal.taskStatus}: not applied]`;
    lines.push(`    ${proposal.taskId} ${proposal.role}: ${files}${note}`);
  }
  return `${lines.join('\n')}\n`;
}
