// @vitest-environment jsdom
/**
 * A question queued behind another task's (`queuedForUser`, seed 001: two interactive agents never
 * question the user at once): the row stays `data-status="waiting"` (the contract's values) and says
 * "queued for you" in its accessible name, its tooltip and the detail view; there is nothing to answer yet.
 */
import { describe, expect, it } from 'vitest';
import { click, makeTask, mountHarness, snapshotMessage, startTime } from './support/harness.js';

const root = makeTask({ id: 't1', description: 'Settle dates and names' });
const asking = makeTask({
  id: 't2',
  parentId: 't1',
  rootId: 't1',
  depth: 1,
  role: 'dates',
  description: 'Settle dates',
  status: 'waiting',
  transcriptLength: 1,
});
const queued = makeTask({
  id: 't3',
  parentId: 't1',
  rootId: 't1',
  depth: 1,
  role: 'names',
  description: 'Settle names',
  status: 'waiting',
  queuedForUser: true,
  transcriptLength: 1,
});

function mounted() {
  const harness = mountHarness();
  harness.send(snapshotMessage([root, asking, queued]));
  harness.scheduler.runFrame();
  return harness;
}

describe('a question queued for you', () => {
  it('shows in the tree: data-status stays waiting, the row says queued for you; the asking row does not', () => {
    const harness = mounted();
    const row = harness.row('t3');
    expect(row.getAttribute('data-status')).toBe('waiting');
    expect(row.getAttribute('aria-label')).toBe('names: Settle names \u2014 waiting, queued for you');
    expect(row.getAttribute('data-queued-for-user')).toBe('true');
    expect(row.getAttribute('title')).toContain('Status: waiting, queued for you');
    const other = harness.row('t2');
    expect(other.getAttribute('aria-label')).toBe('dates: Settle dates \u2014 waiting');
    expect(other.hasAttribute('data-queued-for-user')).toBe(false);
  });

  it('its detail view says so and offers no Answer box until its question is put; then it does', () => {
    const harness = mounted();
    click(harness.row('t3'));
    harness.scheduler.runFrame();
    harness.send({
      type: 'transcript',
      taskId: 't3',
      index: 0,
      entries: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'AskUser', input: { question: 'Which prefix?' } }],
    });
    harness.scheduler.runFrame();
    const detail = harness.root.querySelector<HTMLElement>('.detail')!;
    expect(detail.textContent).toContain('waiting, queued for you');
    const composer = detail.querySelector<HTMLElement>('.composer')!;
    expect(composer.hidden).toBe(true);
    // The first question is answered: this one is put, and the row and the composer follow.
    harness.send({ type: 'task-upsert', now: startTime, tasks: [{ ...queued, queuedForUser: undefined }] });
    harness.scheduler.runFrame();
    expect(harness.row('t3').getAttribute('aria-label')).toBe('names: Settle names \u2014 waiting');
    expect(harness.row('t3').hasAttribute('data-queued-for-user')).toBe(false);
    expect(composer.hidden).toBe(false);
    expect(composer.querySelector('textarea')!.getAttribute('aria-label')).toBe('Answer');
    expect(composer.querySelector('.composer-question')!.textContent).toBe('Which prefix?');
  });
});
