/** The one Markdown rendering of a checks verdict (the trace, both pull request bodies): a table, names that cannot inject HTML or cells. */
import { describe, expect, it } from 'vitest';
import { verdictMarkdown } from '../../src/engine/checks/verdict-markdown.js';

describe('verdictMarkdown', () => {
  it('renders the headline and one row per check, escaping what test output could inject', () => {
    const markdown = verdictMarkdown({
      hasNewFailures: true,
      summary: 'checks: 1 passed, 1 with new failures: npm test',
      results: [
        { name: 'tsc', status: 'passed', newFailures: [], summary: 'no errors' },
        { name: 'npm test', status: 'failed', passed: 4, failed: 1, newFailures: ['a <img src=x> | b\n[link](y)'] },
      ],
    });
    expect(markdown).toBe(
      [
        '## Checks',
        '',
        '⚠️ Checks: 1 passed, 1 with new failures: npm test',
        '',
        '| Check | Status | Result |',
        '| --- | --- | --- |',
        '| tsc | passed | no errors |',
        '| npm test | failed | 4 passed, 1 failed — 1 new failure: a \\<img src=x\\> \\| b \\[link\\](y) |',
        '',
      ].join('\n'),
    );
  });

  it('says a verdict is stale, and leaves the table out when no check ran', () => {
    const markdown = verdictMarkdown({ hasNewFailures: false, summary: 'checks: none found', results: [] }, { stale: true });
    expect(markdown).toContain('✅ Checks: none found');
    expect(markdown).toContain('Run before the last changes to the proposals');
    expect(markdown).not.toContain('| Check |');
  });
});
