// @vitest-environment jsdom
/**
 * The context meter in the sidebar: a row shows a thin bar once its window is more than half full (not
 * below, not once the task has ended), its tooltip and the detail view give the figure.
 */
import { describe, expect, it } from 'vitest';
import { click, makeTask, mountHarness, snapshotMessage } from './support/harness.js';

describe('the context meter in the sidebar', () => {
  it('a bar past 50 %, none below, none once ended; the figure in the tooltip and the detail', () => {
    const harness = mountHarness();
    const quiet = makeTask({ id: 't1', description: 'Audit', context: { usedTokens: 40_000, windowTokens: 200_000 } });
    const full = makeTask({ id: 't2', description: 'Refactor', context: { usedTokens: 126_000, windowTokens: 200_000 } });
    const unknown = makeTask({ id: 't3', description: 'Local', context: { usedTokens: 9000 } });
    harness.send(snapshotMessage([quiet, full, unknown]));
    harness.scheduler.runFrame();
    const figures = (id: string) => harness.row(id).querySelector<HTMLElement>('.tree-figures')!;
    expect(figures('t1').hasAttribute('data-context')).toBe(false);
    expect(figures('t2').getAttribute('data-context')).toBe('63');
    expect(figures('t2').style.getPropertyValue('--context-fill')).toBe('63%');
    expect(figures('t3').hasAttribute('data-context')).toBe(false);
    expect(harness.row('t2').getAttribute('title')).toContain('Context: 63 % of 200k tokens (126k)');
    expect(harness.row('t3').getAttribute('title')).toContain('Context: 9k tokens');
    // Still one element for the figures: the bar is drawn by CSS.
    expect(figures('t2').children).toHaveLength(0);
    click(harness.row('t2'));
    harness.scheduler.runFrame();
    expect(harness.root.querySelector('.detail-meta')!.textContent).toContain('Context63 % of 200k tokens (126k)');
    harness.send({ type: 'task-upsert', now: Date.now(), tasks: [{ ...full, status: 'completed', endedAt: full.startedAt! + 1000 }] });
    harness.scheduler.runFrame();
    expect(figures('t2').hasAttribute('data-context')).toBe(false);
    expect(figures('t2').style.getPropertyValue('--context-fill')).toBe('');
  });
});
