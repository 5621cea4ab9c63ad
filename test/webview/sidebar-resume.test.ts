// @vitest-environment jsdom
/** Interrupted runs in the sidebar: their own status, and Resume on the run's root (row and detail pane). */
import { describe, expect, it } from 'vitest';
import { click, makeTask, mountHarness, pressKey, snapshotMessage, startTime } from './support/harness.js';

const ended = { endedAt: startTime + 3_000, stopReason: { kind: 'shutdown' } } as const;
const root = makeTask({ id: 't1', description: 'Refactor the parser', status: 'interrupted', ...ended });
const child = makeTask({
  id: 't2',
  parentId: 't1',
  rootId: 't1',
  depth: 1,
  role: 'researcher',
  description: 'Find usages',
  status: 'interrupted',
  ...ended,
});
const stoppedRun = makeTask({
  id: 't3',
  description: 'Write docs',
  status: 'stopped',
  endedAt: startTime + 3_000,
  stopReason: { kind: 'user' },
  createdAt: startTime + 10,
});

function detail(harness: ReturnType<typeof mountHarness>): HTMLElement {
  return harness.root.querySelector<HTMLElement>('.detail')!;
}

describe('an interrupted run in the sidebar', () => {
  it('shows interrupted rows with their own status, icon and accessible name', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([root, child, stoppedRun]));
    for (const [id, label] of [
      ['t1', 'coordinator: Refactor the parser'],
      ['t2', 'researcher: Find usages'],
    ] as const) {
      const row = harness.row(id);
      expect(row.getAttribute('data-status')).toBe('interrupted');
      expect(row.getAttribute('aria-label')).toBe(`${label} \u2014 interrupted`);
      expect(row.querySelector('.tree-status')!.className).toContain('codicon-debug-pause');
      expect(row.querySelector('.tree-status')!.className).toContain('status-interrupted');
      expect(row.querySelector('button[aria-label^="Stop"]')).toBeNull();
    }
    expect(harness.row('t3').getAttribute('data-status')).toBe('stopped');
    // An interrupted task has ended: its elapsed time stops at its end.
    expect(harness.row('t1').querySelector('.tree-figures')!.textContent).toMatch(/^3s/);
  });

  it('gives Resume to the interrupted root only (a subagent goes on with its run; a stopped run is not resumable)', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([root, child, stoppedRun]));
    const resume = harness.row('t1').querySelector('button[aria-label^="Resume"]');
    expect(resume?.getAttribute('aria-label')).toBe('Resume run Refactor the parser');
    expect(resume?.getAttribute('tabindex')).toBe('-1');
    expect(harness.row('t2').querySelector('button[aria-label^="Resume"]')).toBeNull();
    expect(harness.row('t3').querySelector('button')).toBeNull();
    for (const row of harness.rows()) expect(row.querySelectorAll('*').length + 1).toBeLessThanOrEqual(5);
  });

  it('posts exactly {type: "resume-run", taskId} when Resume is clicked, without selecting the row', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([root, child]));
    harness.posted.length = 0;
    click(harness.row('t1').querySelector('button[aria-label^="Resume"]')!);
    expect(harness.posted).toEqual([{ type: 'resume-run', taskId: 't1' }]);
    harness.scheduler.runFrame();
    expect(harness.row('t1').getAttribute('aria-selected')).toBe('false');
  });

  it('swaps Resume for Stop when the run goes on, in place', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([root]));
    const row = harness.row('t1');
    harness.send({
      type: 'task-upsert',
      now: startTime + 5_000,
      tasks: [{ ...root, status: 'running', endedAt: undefined, stopReason: undefined }],
    });
    expect(harness.row('t1')).toBe(row);
    expect(row.querySelector('button[aria-label^="Resume"]')).toBeNull();
    expect(row.querySelector('button[aria-label^="Stop"]')).not.toBeNull();
  });

  it('the detail pane of an interrupted run offers Resume, reached by the keyboard, and says why it ended', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([root, child]));
    harness.row('t1').focus();
    pressKey(harness.row('t1'), 'Enter');
    harness.scheduler.runFrame();
    const pane = detail(harness);
    const resume = pane.querySelector<HTMLButtonElement>('.detail-resume')!;
    expect(resume.hidden).toBe(false);
    expect(resume.getAttribute('aria-label')).toBe('Resume run Refactor the parser');
    expect(resume.hasAttribute('tabindex')).toBe(false);
    expect(pane.querySelector<HTMLButtonElement>('.detail-stop')!.hidden).toBe(true);
    expect(pane.querySelector('.detail-reason')!.textContent).toBe('Agent Team shut down before it finished');
    harness.posted.length = 0;
    click(resume);
    expect(harness.posted).toEqual([{ type: 'resume-run', taskId: 't1' }]);

    click(harness.row('t2'));
    harness.scheduler.runFrame();
    expect(pane.querySelector<HTMLButtonElement>('.detail-resume')!.hidden).toBe(true);
  });
});
