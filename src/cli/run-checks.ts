/**
 * `run --checks`: when the run has ended, the workspace's checks on its pending proposals (the verdict the
 * coordinator heard is reused when the proposals are the same), shown as the `checks` JSON event or a
 * summary, kept beside the run's log for `agent-team apply` and Apply to Branch, and added to the trace.
 */
import { writeFile } from 'node:fs/promises';
import {
  type ChangeSetRegistry,
  type ChecksService,
  type ChecksVerdict,
  type ChecksVerdictDetail,
  errorMessage,
  pendingProposals,
  type TaskManager,
} from '../engine/index.js';
import { verdictFile } from './checks-verdict-file.js';
import { terminalSafe } from './terminal-text.js';

export interface RunChecksParts {
  checks: ChecksService;
  changes: ChangeSetRegistry;
  taskManager: TaskManager;
  rootId: string;
  runId: string;
  workspaceRoot: string;
  /** Where the run history is (the verdict is kept there); undefined: it is not kept. */
  historyDirectory?: string;
  signal: AbortSignal;
}

export async function runChecksAtEnd(
  parts: RunChecksParts,
  output: { write(text: string): void },
): Promise<ChecksVerdictDetail | undefined> {
  const pending = pendingProposals(parts.changes, parts.taskManager, parts.rootId);
  if (pending.proposals.length === 0) {
    output.write('Checks: no pending proposals to check.\n');
    return undefined;
  }
  try {
    const verdict = await parts.checks.runOnProposals({
      runId: parts.runId,
      taskIds: pending.taskIds,
      proposals: pending.proposals,
      signal: parts.signal,
    });
    if (parts.historyDirectory !== undefined) {
      await writeFile(verdictFile(parts.historyDirectory, parts.runId), `${JSON.stringify(verdict)}\n`).catch((error: unknown) =>
        output.write(`agent-team: the checks' verdict was not kept: ${terminalSafe(errorMessage(error))}\n`),
      );
    }
    return verdict;
  } catch (error) {
    if (parts.signal.aborted) return undefined;
    output.write(`agent-team: the checks did not run: ${terminalSafe(errorMessage(error))}\n`);
    return undefined;
  }
}

/** The JSON event, with exactly the contract's fields (CONTRACTS4 "Evidence"). */
export function checksEvent(verdict: ChecksVerdict): {
  type: 'checks';
  runId: string;
  taskIds: string[];
  results: Array<Record<string, unknown>>;
} {
  return {
    type: 'checks',
    runId: verdict.runId,
    taskIds: verdict.taskIds,
    results: verdict.results.map((result) => ({
      name: result.name,
      status: result.status,
      ...(result.passed !== undefined ? { passed: result.passed } : {}),
      ...(result.failed !== undefined ? { failed: result.failed } : {}),
      newFailures: result.newFailures,
      fixed: result.fixed,
      durationMs: result.durationMs,
    })),
  };
}

/** The summary people read: one line for the verdict, one per check. */
export function describeVerdict(verdict: ChecksVerdictDetail): string {
  const marks: Record<string, string> = { passed: '✓', failed: '✗', 'timed-out': '⏱', error: '!', skipped: '-', refused: '⊘' };
  const lines = [`Checks on the proposals of ${verdict.taskIds.join(', ')}: ${verdict.summary.replace(/^checks: /, '')}`];
  for (const result of verdict.results)
    lines.push(
      `  ${marks[result.status] ?? '?'} ${result.name}: ${result.summary ?? result.status} (${(result.durationMs / 1000).toFixed(1)} s)`,
    );
  return `${terminalSafe(lines.join('\n'))}\n`;
}
