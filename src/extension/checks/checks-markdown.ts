/**
 * A run's checks as Markdown, for the body of the pull request Apply to Branch opens: what the reviewer
 * of the pull request should know before merging, as the user saw it in the review.
 */
import { checkLine, checksHeadline } from '../../shared/checks-text.js';
import type { RunChecks } from '../../shared/protocol-checks.js';

export function checksMarkdown(run: RunChecks, stale: boolean): string {
  const lines = ['## Checks', '', `${run.hasNewFailures ? '\u26a0\ufe0f' : '\u2705'} ${markdownText(run.summary || checksHeadline(run))}`];
  if (stale) lines.push('', '_Run before the last changes to the proposals: Run Checks Again for a verdict on what was committed._');
  lines.push('', ...run.results.map((result) => `- ${markdownText(checkLine(result))}`));
  return `${lines.join('\n')}\n`;
}

/** One line, with nothing that could start Markdown or HTML of its own (names come from test output). */
function markdownText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[<>`*_[\]|]/g, (character) => `\\${character}`);
}
