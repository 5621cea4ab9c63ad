/**
 * Where a run's last checks verdict is kept: `<runId>.checks.json` beside its log in the run history, read
 * by `agent-team apply` (which warns before applying proposals with new failures) and by Apply to Branch
 * (the pull request's body, engine/checks/verdict-markdown.ts). Not signed like the log: a verdict missing or unreadable is said as such.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type ChecksVerdictDetail, safeRunId } from '../engine/index.js';

export function verdictFile(historyDirectory: string, runId: string): string {
  if (!safeRunId.test(runId)) throw new Error(`not a run id: ${runId}`);
  return path.join(historyDirectory, `${runId}.checks.json`);
}

/** The kept verdict, or undefined when there is none (or it does not read as one). */
export async function readVerdict(historyDirectory: string, runId: string): Promise<ChecksVerdictDetail | undefined> {
  const text = await readFile(verdictFile(historyDirectory, runId), 'utf8').catch(() => undefined);
  if (text === undefined || text.length > 4 * 1024 * 1024) return undefined;
  try {
    const verdict = JSON.parse(text) as ChecksVerdictDetail;
    return verdict.runId === runId && Array.isArray(verdict.results) && typeof verdict.hasNewFailures === 'boolean' ? verdict : undefined;
  } catch {
    return undefined;
  }
}
