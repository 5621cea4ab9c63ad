/**
 * A checks verdict as Markdown, the one renderer for every place it is read as such: a run's trace (`run
 * --trace x.md`) and the body of the pull request `agent-team apply --branch` and VS Code's Apply to Branch
 * open, where the reviewer should see it before merging. Names and summaries come from test output: each
 * cell is one line with nothing that could open HTML, a link, code or another cell.
 */
import type { CheckStatus } from './types.js';

/** What a verdict must have to be shown: the engine's `ChecksVerdictDetail` and the views' `RunChecks` both do. */
export interface VerdictForMarkdown {
  hasNewFailures: boolean;
  /** "checks: 1 passed, 1 with new failures: …" (verdict.ts). */
  summary: string;
  results: ReadonlyArray<{
    name: string;
    status: CheckStatus;
    summary?: string;
    passed?: number;
    failed?: number;
    newFailures: readonly string[];
  }>;
}

/** `stale`: the proposals changed after the verdict (it is then said, so nobody takes it for the committed files'). Default false. */
export function verdictMarkdown(verdict: VerdictForMarkdown, options: { stale?: boolean } = {}): string {
  const lines = ['## Checks', '', `${verdict.hasNewFailures ? '⚠️' : '✅'} ${cell(verdict.summary.replace(/^checks: /, 'Checks: '))}`];
  if (options.stale)
    lines.push('', '_Run before the last changes to the proposals: run the checks again for a verdict on what was committed._');
  if (verdict.results.length > 0) {
    lines.push('', '| Check | Status | Result |', '| --- | --- | --- |');
    for (const result of verdict.results) lines.push(`| ${cell(result.name)} | ${result.status} | ${cell(resultText(result))} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** The check's own summary, else what its counts and new failures say. */
function resultText(result: VerdictForMarkdown['results'][number]): string {
  if (result.summary) return result.summary;
  const counts = [
    result.passed === undefined ? '' : `${result.passed} passed`,
    result.failed === undefined ? '' : `${result.failed} failed`,
  ];
  const count = result.newFailures.length;
  const news = count === 0 ? '' : `${count} new failure${count === 1 ? '' : 's'}: ${result.newFailures.slice(0, 3).join(', ')}`;
  return [counts.filter((part) => part !== '').join(', '), news].filter((part) => part !== '').join(' — ');
}

/** One line, bounded, with no character that could start HTML, a link, code or a new cell. */
function cell(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .slice(0, 300)
    .replace(/[<>`[\]|\\]/g, (character) => `\\${character}`);
}
