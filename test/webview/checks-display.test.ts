// @vitest-environment jsdom
/**
 * A run's checks in the sidebar (issue 40): the badge on the run's row (and its accessible name), the
 * detail view's "Checks" section per check (passed / failed / timed out, counts, new failures, fixed,
 * "Running checks…" while in progress) and its Run Checks Again button.
 */
import { describe, expect, it } from 'vitest';
import { parseHostMessage, type RunChecks, toRunChecks } from '../../src/shared/protocol.js';
import { checksHeadline } from '../../src/shared/checks-text.js';
import { click, makeTask, mountHarness, snapshotMessage } from './support/harness.js';

const failing: RunChecks = {
  runId: 't1',
  state: 'done',
  summary: 'checks: 1 passed, 1 with new failures: npm test (1 new failure: math › adds)',
  hasNewFailures: true,
  results: [
    {
      name: 'npm test',
      status: 'failed',
      passed: 11,
      failed: 1,
      newFailures: ['math › adds'],
      newFailureCount: 1,
      fixed: ['math › divides'],
      fixedCount: 1,
      durationMs: 2300,
      output: 'FAIL math › adds',
    },
    { name: 'tsc', status: 'passed', newFailures: [], newFailureCount: 0, fixed: [], fixedCount: 0, durationMs: 900 },
    { name: 'slow', status: 'timed-out', newFailures: [], newFailureCount: 0, fixed: [], fixedCount: 0, durationMs: 300_000 },
  ],
};

function mountRun() {
  const harness = mountHarness();
  harness.send(
    snapshotMessage([
      makeTask({ id: 't1', status: 'completed', endedAt: 1 }),
      makeTask({ id: 't2', parentId: 't1', rootId: 't1', role: 'refactorer', status: 'completed' }),
    ]),
  );
  return harness;
}

const figures = (row: HTMLElement) => row.querySelector<HTMLElement>('.tree-figures')!;

describe('checks in the sidebar', () => {
  it("badges the run's row while checks run, then with the verdict, in its accessible name too; a subagent's row has none", () => {
    const harness = mountRun();
    harness.send({
      type: 'checks',
      runs: [{ runId: 't1', state: 'running', summary: 'Running checks…', hasNewFailures: false, results: [] }],
    });
    expect(figures(harness.row('t1')).getAttribute('data-checks')).toBe('running');
    expect(figures(harness.row('t1')).getAttribute('data-checks-label')).toBe('checks…');
    expect(harness.row('t1').getAttribute('aria-label')).toBe('coordinator: Task t1 \u2014 completed, checks: checks running…');

    harness.send({ type: 'checks', runs: [failing] });
    expect(figures(harness.row('t1')).getAttribute('data-checks')).toBe('new-failures');
    // Short in the row (the label keeps its room); the names in its accessible name.
    expect(figures(harness.row('t1')).getAttribute('data-checks-label')).toBe('\u2717 1 new failure');
    expect(harness.row('t1').getAttribute('aria-label')).toContain('checks: 1 new failure: math › adds');
    expect(figures(harness.row('t2')).hasAttribute('data-checks')).toBe(false);
    expect(harness.row('t2').getAttribute('aria-label')).toBe('refactorer: Task t2 \u2014 completed');
  });

  it("shows each check in the run's detail view: status, counts, new failures, fixed, output; Run Checks Again posts run-checks", () => {
    const harness = mountRun();
    harness.send({ type: 'checks', runs: [failing] });
    click(harness.row('t1'));
    harness.scheduler.runFrame();
    const section = harness.root.querySelector<HTMLElement>('section.checks[aria-label="Checks"]')!;
    expect(section.hidden).toBe(false);
    expect(section.querySelector('.checks-summary')!.textContent).toBe(failing.summary);
    const item = (name: string) => section.querySelector<HTMLElement>(`li.check-result[data-check-name="${name}"]`)!;
    expect(item('npm test').getAttribute('data-status')).toBe('failed');
    expect(item('npm test').querySelector('.check-line')!.textContent).toBe(
      'npm test: failed (11 passed, 1 failed) \u2014 1 new failure: math › adds; 1 fixed: math › divides',
    );
    expect(item('npm test').querySelector('.check-new-failures')!.textContent).toBe('New failures:math › adds');
    expect(item('npm test').querySelector('.check-fixed')!.textContent).toBe('Fixed:math › divides');
    expect(item('npm test').querySelector('.check-output pre')!.textContent).toBe('FAIL math › adds');
    expect(item('tsc').querySelector('.check-line')!.textContent).toBe('tsc: passed');
    expect(item('slow').querySelector('.check-line')!.textContent).toBe('slow: timed out');
    expect(item('slow').querySelector('.check-duration')!.textContent).toBe('5m 00s');

    click(section.querySelector('button.run-checks')!);
    expect(harness.posted).toContainEqual({ type: 'run-checks', taskId: 't1' });

    // Running again: "Running checks…", the last verdict still listed, marked stale.
    harness.send({ type: 'checks', runs: [{ ...failing, state: 'running' }] });
    expect(section.querySelector('.checks-summary')!.textContent).toBe('Running checks… (below: the last verdict)');
    expect(item('npm test').classList.contains('check-stale')).toBe(true);
  });

  it("shows no checks section for a subagent, nor for a run without checks; a new snapshot forgets the runs' checks", () => {
    const harness = mountRun();
    click(harness.row('t1'));
    harness.scheduler.runFrame();
    const section = () => harness.root.querySelector<HTMLElement>('section.checks')!;
    expect(section().hidden).toBe(true);
    harness.send({ type: 'checks', runs: [failing] });
    expect(section().hidden).toBe(false);
    click(harness.row('t2'));
    harness.scheduler.runFrame();
    expect(section().hidden).toBe(true);
    harness.send(snapshotMessage([makeTask({ id: 't1', status: 'completed', endedAt: 1 })]));
    expect(figures(harness.row('t1')).hasAttribute('data-checks')).toBe(false);
  });

  it('reads a verdict without new failures truthfully: passed, fixed, failing as before, not run', () => {
    const result = (status: RunChecks['results'][number]['status'], fixed: string[] = []) => ({
      name: 'npm test',
      status,
      newFailures: [],
      newFailureCount: 0,
      fixed,
      fixedCount: fixed.length,
      durationMs: 1,
    });
    const run = (results: RunChecks['results'], hasNewFailures = false): RunChecks => ({
      runId: 't1',
      state: 'done',
      summary: '',
      hasNewFailures,
      results,
    });
    expect(checksHeadline(run([result('passed', ['a › b'])]))).toBe('checks passed (1 fixed)');
    expect(checksHeadline(run([result('failed')]))).toBe('no new failures');
    expect(checksHeadline(run([result('timed-out')], true))).toBe('npm test timed out');
    expect(checksHeadline(run([result('refused')]))).toBe('checks not run');
    expect(checksHeadline({ ...run([]), state: 'failed' })).toBe('checks could not run');
  });

  it('bounds what it sends: names cut at 50 with their count kept, output cut to its end; unknown keys are refused', () => {
    const names = Array.from({ length: 60 }, (_, index) => `test ${index}`);
    const sent = toRunChecks(
      {
        runId: 't1',
        taskIds: ['t2'],
        changedFiles: ['a.ts'],
        hasNewFailures: true,
        summary: 's',
        results: [{ name: 'npm test', status: 'failed', newFailures: names, fixed: [], durationMs: 5, output: `${'x'.repeat(20_000)}END` }],
      },
      'done',
      't1',
    );
    expect(sent.results[0].newFailures).toHaveLength(50);
    expect(sent.results[0].newFailureCount).toBe(60);
    expect(sent.results[0].output!.endsWith('END')).toBe(true);
    expect(parseHostMessage({ type: 'checks', runs: [sent] }).message).toBeDefined();
    expect(checksHeadline(sent)).toBe('60 new failures: test 0, test 1, test 2, and 57 more');
    expect(parseHostMessage({ type: 'checks', runs: [{ ...sent, apiKey: 'x' }] }).message).toBeUndefined();
  });
});
