/**
 * A check with the proposals against the same check on the workspace as it is (the baseline): what newly
 * fails, what got fixed, and one line people read. Failures are compared as multisets (two equal tsc
 * errors in one file are two), so one more of an existing error is one new error.
 */
import type { CheckOutcome } from './check-outcome.js';
import type { CheckResult } from './types.js';

export function compareWithBaseline(outcome: CheckOutcome, baseline: CheckOutcome | undefined): CheckResult {
  const parsed = outcome.parsed;
  const before = baseline?.parsed;
  const comparable = parsed !== undefined && before !== undefined && before.runner === parsed.runner && baseline?.status !== 'timed-out';
  const newFailures =
    parsed === undefined
      ? []
      : comparable
        ? multisetMinus(parsed.failures, before.failures)
        : baseline === undefined || baseline.status === 'passed'
          ? parsed.failures
          : [];
  const fixed = comparable && outcome.status !== 'timed-out' ? multisetMinus(before.failures, parsed.failures) : [];
  const result: CheckResult = {
    name: outcome.name,
    status: outcome.status,
    ...(parsed?.passed !== undefined ? { passed: parsed.passed } : {}),
    ...(parsed?.failed !== undefined ? { failed: parsed.failed } : {}),
    newFailures: [...new Set(newFailures)],
    fixed: [...new Set(fixed)],
    durationMs: outcome.durationMs,
    ...(parsed ? { runner: parsed.runner } : {}),
    ...(outcome.exitCode !== undefined ? { exitCode: outcome.exitCode } : {}),
    output: outcome.output,
  };
  result.summary = summarize(result, outcome, baseline, newFailures, parsed?.diagnostics === true);
  return result;
}

/** True when the proposals make this check worse: new failures, or failing (timing out) where it passed. */
export function isRegression(result: CheckResult, baseline: CheckOutcome | undefined): boolean {
  if (result.newFailures.length > 0) return true;
  if (result.status !== 'failed' && result.status !== 'timed-out' && result.status !== 'error') return false;
  return baseline === undefined || baseline.status === 'passed';
}

function summarize(
  result: CheckResult,
  outcome: CheckOutcome,
  baseline: CheckOutcome | undefined,
  newFailures: string[],
  diagnostics: boolean,
): string {
  const parts: string[] = [];
  if (result.status === 'timed-out') parts.push(outcome.reason ?? 'timed out');
  else if (result.status === 'refused' || result.status === 'skipped' || result.status === 'error') return outcome.reason ?? result.status;
  if (newFailures.length > 0)
    parts.push(
      diagnostics ? newErrors(result.runner ?? result.name, newFailures) : counted(newFailures.length, 'new failure', result.newFailures),
    );
  if (result.fixed.length > 0) parts.push(counted(result.fixed.length, 'fixed', result.fixed, true));
  if (parts.length > 0) return parts.join('; ');
  if (result.status === 'passed') return result.passed !== undefined ? `passed (${result.passed} passed)` : 'passed';
  if (baseline && baseline.status !== 'passed')
    return `failed, as it does without the proposals${result.failed !== undefined ? ` (${result.failed} failing)` : ''}`;
  return `failed${result.exitCode !== undefined ? ` (exit code ${result.exitCode})` : ''}; it passes without the proposals`;
}

/** "2 new failures: parser › handles empty input, parser › handles nulls". */
function counted(count: number, noun: string, names: readonly string[], invariable = false): string {
  const label = invariable || count === 1 ? noun : `${noun.replace(/e$/, 'e')}s`;
  const listed = names.slice(0, 5).join(', ');
  return `${count} ${label}: ${listed}${names.length > 5 ? `, and ${names.length - 5} more` : ''}`;
}

/** "tsc: 3 new errors in src/a.ts" (or "in src/a.ts, src/b.ts"). */
function newErrors(runner: string, failures: readonly string[]): string {
  const files = [...new Set(failures.map((failure) => failure.slice(0, failure.indexOf(': '))))];
  const listed = files.slice(0, 3).join(', ') + (files.length > 3 ? ` and ${files.length - 3} more files` : '');
  return `${runner}: ${failures.length} new error${failures.length === 1 ? '' : 's'} in ${listed}`;
}

/** The entries of `after` beyond those of `before`, counting repeats. */
export function multisetMinus(after: readonly string[], before: readonly string[]): string[] {
  const remaining = new Map<string, number>();
  for (const name of before) remaining.set(name, (remaining.get(name) ?? 0) + 1);
  const extra: string[] = [];
  for (const name of after) {
    const left = remaining.get(name) ?? 0;
    if (left > 0) remaining.set(name, left - 1);
    else extra.push(name);
  }
  return extra;
}
