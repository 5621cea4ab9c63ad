/** The comparison with the baseline: new failures and fixed ones by name, counted as multisets; the summaries. */
import { describe, expect, it } from 'vitest';
import type { CheckOutcome } from '../../src/engine/checks/check-outcome.js';
import { compareWithBaseline, isRegression } from '../../src/engine/checks/compare.js';

const outcome = (
  status: CheckOutcome['status'],
  failures: string[],
  runner = 'vitest',
  extra: Partial<CheckOutcome> = {},
): CheckOutcome => ({
  name: 'test',
  status,
  durationMs: 10,
  output: '',
  parsed: { runner, passed: 3, failed: failures.length, failures, ...(runner === 'tsc' ? { diagnostics: true } : {}) },
  ...extra,
});

describe('compareWithBaseline', () => {
  it('names what newly fails and what got fixed', () => {
    const result = compareWithBaseline(outcome('failed', ['parser › a', 'parser › b', 'old']), outcome('failed', ['old', 'gone']));
    expect(result).toMatchObject({
      newFailures: ['parser › a', 'parser › b'],
      fixed: ['gone'],
      summary: '2 new failures: parser › a, parser › b; 1 fixed: gone',
    });
    expect(isRegression(result, outcome('failed', ['old']))).toBe(true);
  });

  it('counts one more of an equal tsc error as one new error, by file', () => {
    const error = "src/a.ts: TS2322 Type 'number' is not assignable to type 'string'.";
    const result = compareWithBaseline(
      outcome('failed', [error, error, "src/b.ts: TS2304 Cannot find name 'x'."], 'tsc'),
      outcome('failed', [error], 'tsc'),
    );
    expect(result.newFailures).toHaveLength(2);
    expect(result.summary).toBe('tsc: 2 new errors in src/a.ts, src/b.ts');
  });

  it('a failure without names: a regression where the baseline passed, none where it failed too', () => {
    const unparsed = (status: CheckOutcome['status']): CheckOutcome => ({
      name: 'make test',
      status,
      durationMs: 5,
      output: '',
      exitCode: status === 'passed' ? 0 : 2,
    });
    const worse = compareWithBaseline(unparsed('failed'), unparsed('passed'));
    expect(worse.summary).toBe('failed (exit code 2); it passes without the proposals');
    expect(isRegression(worse, unparsed('passed'))).toBe(true);
    const same = compareWithBaseline(unparsed('failed'), unparsed('failed'));
    expect(same.summary).toBe('failed, as it does without the proposals');
    expect(isRegression(same, unparsed('failed'))).toBe(false);
  });

  it('a timeout says so, and is a regression where the baseline passed', () => {
    const result = compareWithBaseline(
      {
        name: 'hangs',
        status: 'timed-out',
        durationMs: 2000,
        output: '',
        reason: 'timed out after 2 s (every process it started was ended)',
      },
      { name: 'hangs', status: 'passed', durationMs: 1, output: '' },
    );
    expect(result.summary).toBe('timed out after 2 s (every process it started was ended)');
    expect(isRegression(result, { name: 'hangs', status: 'passed', durationMs: 1, output: '' })).toBe(true);
  });
});
