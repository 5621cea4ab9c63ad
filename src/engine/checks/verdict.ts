/** The verdict of one run of the checks, with the line people read first. */
import type { CheckOutcome } from './check-outcome.js';
import { isRegression } from './compare.js';
import type { CheckResult, ChecksVerdictDetail } from './types.js';

export interface VerdictParts {
  runId: string;
  taskIds: string[];
  changedFiles: string[];
  results: CheckResult[];
  baselines: ReadonlyMap<string, CheckOutcome>;
}

export function buildVerdict(parts: VerdictParts): ChecksVerdictDetail {
  const regressed = parts.results.filter((result) => isRegression(result, parts.baselines.get(result.name)));
  return {
    runId: parts.runId,
    taskIds: parts.taskIds,
    results: parts.results,
    changedFiles: parts.changedFiles,
    hasNewFailures: regressed.length > 0,
    summary: verdictSummary(parts.results, regressed),
  };
}

/** "checks: 1 passed, 1 with new failures: npm test (1 new failure: math › adds)". */
export function verdictSummary(results: readonly CheckResult[], regressed: readonly CheckResult[]): string {
  if (results.length === 0) return 'checks: none found';
  const count = (status: CheckResult['status']) => results.filter((result) => result.status === status).length;
  const parts: string[] = [];
  const passed = count('passed');
  if (passed > 0) parts.push(`${passed} passed`);
  if (regressed.length > 0)
    parts.push(
      `${regressed.length} with new failures: ${regressed.map((result) => `${result.name} (${result.summary ?? result.status})`).join('; ')}`,
    );
  const otherFailed = results.filter(
    (result) => (result.status === 'failed' || result.status === 'timed-out') && !regressed.includes(result),
  ).length;
  if (otherFailed > 0) parts.push(`${otherFailed} failing as before`);
  for (const status of ['refused', 'skipped', 'error'] as const)
    if (count(status) > 0) parts.push(`${count(status)} ${status === 'refused' ? 'not run' : status}`);
  const fixed = results.flatMap((result) => result.fixed);
  if (fixed.length > 0 && regressed.length === 0) parts.push(`${fixed.length} fixed`);
  return `checks: ${parts.join(', ')}`;
}
