/**
 * How a run's checks read, in one place for every view that shows them: the tree's badge, the detail
 * view (src/webview/checks-view.ts) and the line above each file of the review (src/extension/checks/
 * checks-lens.ts). The wording follows the issue: "1 new failure: parser › handles empty input".
 */
import type { ProtocolCheckResult, RunChecks } from './protocol-checks.js';

/** How a check's status reads. */
export const checkStatusText: Readonly<Record<ProtocolCheckResult['status'], string>> = {
  passed: 'passed',
  failed: 'failed',
  'timed-out': 'timed out',
  error: 'could not run',
  skipped: 'skipped (no file it watches changed)',
  refused: 'not run (needs approval, a trusted folder and the sandbox)',
};

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** "1 new failure: parser › handles empty input" (the names the list holds, "and 3 more" for the rest). */
export function newFailuresText(result: Pick<ProtocolCheckResult, 'newFailures' | 'newFailureCount'>): string {
  return namedCount(result.newFailureCount, 'new failure', result.newFailures);
}

/** "2 fixed: a › b, c". */
export function fixedText(result: Pick<ProtocolCheckResult, 'fixed' | 'fixedCount'>): string {
  return result.fixedCount === 0 ? '' : `${result.fixedCount} fixed: ${namesOf(result.fixed, result.fixedCount)}`;
}

function namedCount(count: number, word: string, names: readonly string[]): string {
  if (count === 0) return '';
  return names.length === 0 ? plural(count, word) : `${plural(count, word)}: ${namesOf(names, count)}`;
}

function namesOf(names: readonly string[], count: number): string {
  const shown = names.slice(0, 3);
  return `${shown.join(', ')}${count > shown.length ? `, and ${count - shown.length} more` : ''}`;
}

/** "12 passed, 1 failed" when the runner's output said so. */
export function countsText(result: Pick<ProtocolCheckResult, 'passed' | 'failed'>): string {
  return [result.passed === undefined ? '' : `${result.passed} passed`, result.failed === undefined ? '' : `${result.failed} failed`]
    .filter((part) => part !== '')
    .join(', ');
}

/** One check in a line: "npm test: failed (12 passed, 1 failed) — 1 new failure: math › adds". */
export function checkLine(result: ProtocolCheckResult): string {
  const counts = countsText(result);
  const news = [newFailuresText(result), fixedText(result)].filter((part) => part !== '').join('; ');
  return `${result.name}: ${checkStatusText[result.status]}${counts === '' ? '' : ` (${counts})`}${news === '' ? '' : ` \u2014 ${news}`}`;
}

/**
 * Whether the run's checks are worth a badge and a line above the review: not when none were found (a
 * workspace without checks would otherwise badge every run "no checks ran"); the detail view still says so.
 */
export function worthShowing(run: RunChecks | undefined): run is RunChecks {
  return run !== undefined && (run.state !== 'done' || run.results.length > 0);
}

/** The badge's look: what the verdict means for the user's decision. */
export type ChecksTone = 'running' | 'passed' | 'new-failures' | 'not-run';

export function checksTone(run: RunChecks): ChecksTone {
  if (run.state === 'running') return 'running';
  if (run.state === 'failed') return 'not-run';
  if (run.hasNewFailures) return 'new-failures';
  const ran = run.results.filter((result) => result.status !== 'skipped' && result.status !== 'refused');
  return ran.length === 0 ? 'not-run' : 'passed';
}

/**
 * The badge in a tree row, short enough to leave the row its label: "✗ 1 new failure", "✓ checks",
 * "checks…"; the names are in the row's accessible name and the detail view.
 */
export function checksBadgeText(run: RunChecks): string {
  const tone = checksTone(run);
  if (tone === 'running') return 'checks\u2026';
  if (tone === 'not-run') return 'checks not run';
  if (tone === 'passed') return '\u2713 checks';
  const newFailures = run.results.reduce((sum, result) => sum + result.newFailureCount, 0);
  return `\u2717 ${newFailures > 0 ? plural(newFailures, 'new failure') : 'checks'}`;
}

/**
 * The shortest true account, for the row's accessible name and the review's line: "1 new failure: math › adds",
 * "npm test timed out", "checks passed (2 fixed)", "checks running…".
 */
export function checksHeadline(run: RunChecks): string {
  const tone = checksTone(run);
  if (tone === 'running') return 'checks running\u2026';
  if (run.state === 'failed') return 'checks could not run';
  const newFailures = run.results.reduce((sum, result) => sum + result.newFailureCount, 0);
  if (newFailures > 0) {
    return newFailuresText({ newFailureCount: newFailures, newFailures: run.results.flatMap((result) => result.newFailures) });
  }
  if (tone === 'new-failures') {
    const broken = run.results.filter((result) => result.status === 'failed' || result.status === 'timed-out' || result.status === 'error');
    return broken.length === 0 ? 'checks failed' : broken.map((result) => `${result.name} ${checkStatusText[result.status]}`).join(', ');
  }
  if (tone === 'not-run') return run.results.some((result) => result.status === 'refused') ? 'checks not run' : 'no checks ran';
  const fixed = run.results.reduce((sum, result) => sum + result.fixedCount, 0);
  // A check that failed before the proposals too is no verdict against them, but it did not pass either.
  const allPassed = run.results.every((result) => result.status === 'passed' || result.status === 'skipped');
  return `${allPassed ? 'checks passed' : 'no new failures'}${fixed > 0 ? ` (${fixed} fixed)` : ''}`;
}
