// @vitest-environment jsdom
/**
 * A run with a token budget: its row shows spend against the budget, and says when the budget stopped it.
 * What a run cost: the row's tooltip and the detail, against a money budget, "unknown" where no price is known.
 */
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
      tasks: [
        {
          ...running,
          status: 'stopped',
          endedAt: running.startedAt! + 1000,
          treeUsage: { inputTokens: 4000, outputTokens: 1200 },
          stopReason: { kind: 'budget', detail: 'over the budget of 5000' },
        },
      ],
    });
    harness.scheduler.runFrame();
    expect(figures().textContent).toMatch(/5\.2k\/5k tokens\s+budget spent$/);
    click(harness.row('t1'));
    harness.scheduler.runFrame();
    expect(harness.root.querySelector('.detail-meta')!.textContent).toContain('Budget5,200 of 5,000 tokens');
    expect(harness.root.querySelector('.detail-reason')!.textContent).toContain('budget exceeded');
  });

  it("shows what a task and its tree cost, against a money budget, in the row's tooltip and the detail", () => {
    const harness = mountHarness();
    const root = makeTask({
      id: 't1',
      description: 'Audit',
      budgetUsd: 2,
      usage: { inputTokens: 900, outputTokens: 100 },
      treeUsage: { inputTokens: 3000, outputTokens: 1100 },
      cost: { usd: 0.25, unpricedTokens: 0 },
      treeCost: { usd: 0.75, unpricedTokens: 2000 },
    });
    const child = makeTask({
      id: 't2',
      parentId: 't1',
      description: 'Read',
      usage: { inputTokens: 100, outputTokens: 10 },
      treeUsage: { inputTokens: 100, outputTokens: 10 },
      cost: { usd: 0, unpricedTokens: 110 },
      treeCost: { usd: 0, unpricedTokens: 110 },
    });
    harness.send(snapshotMessage([root, child]));
    harness.scheduler.runFrame();
    expect(harness.row('t1').getAttribute('title')).toContain('Cost: ≥ $0.750 (some models unpriced) of $2 (with subagents)');
    click(harness.row('t1'));
    harness.scheduler.runFrame();
    const meta = harness.root.querySelector('.detail-meta')!.textContent;
    expect(meta).toContain('Cost$0.250');
    expect(meta).toContain('Cost with subagents≥ $0.750 (some models unpriced)');
    expect(meta).toContain('Money budget≥ $0.750 (some models unpriced) of $2');
    expect(harness.row('t2').getAttribute('title')).toContain('Cost: unknown (with subagents)');
  });
});
