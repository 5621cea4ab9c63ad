// @vitest-environment jsdom
/** A run with a token budget: its row shows spend against the budget, and says when the budget stopped it. */
import { describe, expect, it } from 'vitest';
import { click, makeTask, mountHarness, snapshotMessage } from './support/harness.js';

describe('budgets in the sidebar', () => {
  it('a row shows spend against its budget; a stopped one says the budget was spent; the detail names both', () => {
    const harness = mountHarness();
    const running = makeTask({ id: 't1', description: 'Audit', budgetTokens: 5000, treeUsage: { inputTokens: 3000, outputTokens: 1100 } });
    harness.send(snapshotMessage([running]));
    harness.scheduler.runFrame();
    const figures = () => harness.row('t1').querySelector('.tree-figures')!;
    expect(figures().textContent).toContain('4.1k/5k tokens');
    expect(figures().getAttribute('title')).toContain('of a budget of 5,000');
    harness.send({
      type: 'task-upsert',
      now: Date.now(),
      tasks: [{ ...running, status: 'stopped', endedAt: running.startedAt! + 1000, treeUsage: { inputTokens: 4000, outputTokens: 1200 }, stopReason: { kind: 'budget', detail: 'over the budget of 5000' } }],
    });
    harness.scheduler.runFrame();
    expect(figures().textContent).toMatch(/5\.2k\/5k tokens\s+budget spent$/);
    click(harness.row('t1'));
    harness.scheduler.runFrame();
    expect(harness.root.querySelector('.detail-meta')!.textContent).toContain('Budget5,200 of 5,000 tokens');
    expect(harness.root.querySelector('.detail-reason')!.textContent).toContain('budget exceeded');
  });
});
