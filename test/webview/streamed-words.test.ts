// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { click, makeTask, mountHarness, snapshotMessage } from './support/harness.js';

const task = makeTask({ id: 't1', role: 'researcher', description: 'Find usages', transcriptLength: 1 });
const other = makeTask({ id: 't2', role: 'researcher', description: 'Other', transcriptLength: 0 });

/** A sidebar with `t1` selected and its transcript drawn (one entry), no frame waiting. */
function streamingHarness() {
  const harness = mountHarness();
  harness.send(snapshotMessage([task, other]));
  click(harness.row('t1'));
  harness.scheduler.runFrame();
  harness.send({ type: 'transcript', taskId: 't1', index: 0, entries: [{ type: 'text', text: 'Looking.' }] });
  expect(harness.scheduler.pending).toBe(0);
  return harness;
}

function streamingElement(harness: ReturnType<typeof mountHarness>): HTMLElement {
  return harness.root.querySelector<HTMLElement>('.transcript-streaming')!;
}

/** Lets the turn end: the microtasks queued by `receive` run. */
const turnEnd = () => Promise.resolve();

describe('streamed words', () => {
  it('appear in the DOM at the end of the turn that brought them, without waiting for a frame', async () => {
    const harness = streamingHarness();
    const requestedBefore = harness.scheduler.requested;
    harness.sidebar.receive({ type: 'text-delta', taskId: 't1', text: 'Reading ' });
    expect(streamingElement(harness).textContent).toBe(''); // not written inside `receive`: a burst is coalesced
    await turnEnd();
    expect(streamingElement(harness).textContent).toBe('Reading ');
    expect(streamingElement(harness).hidden).toBe(false);
    // No frame was asked for, and none ran.
    expect(harness.scheduler.requested).toBe(requestedBefore);
    expect(harness.scheduler.pending).toBe(0);

    harness.sidebar.receive({ type: 'text-delta', taskId: 't1', text: 'files' });
    await turnEnd();
    expect(streamingElement(harness).textContent).toBe('Reading files');
    expect(harness.scheduler.requested).toBe(requestedBefore);
  });

  it('coalesce a burst into one append to one text node', async () => {
    const harness = streamingHarness();
    harness.sidebar.receive({ type: 'text-delta', taskId: 't1', text: 'first ' });
    await turnEnd();
    const node = streamingElement(harness).firstChild;
    const records: MutationRecord[] = [];
    const observer = new MutationObserver((found) => records.push(...found));
    observer.observe(harness.root, { subtree: true, childList: true, characterData: true, attributes: true });
    for (let index = 0; index < 50; index++) harness.sidebar.receive({ type: 'text-delta', taskId: 't1', text: `w${index} ` });
    await turnEnd();
    records.push(...observer.takeRecords());
    observer.disconnect();
    expect(records).toHaveLength(1);
    expect(records[0].type).toBe('characterData');
    expect(streamingElement(harness).firstChild).toBe(node);
    expect(streamingElement(harness).textContent).toBe(`first ${Array.from({ length: 50 }, (_, index) => `w${index} `).join('')}`);
  });

  it('wait for a frame when the pane does not show their transcript as it is yet', async () => {
    const harness = streamingHarness();
    // An entry the pane has not drawn: the words must come after it, so a render shows both.
    harness.sidebar.receive({ type: 'transcript', taskId: 't1', index: 1, entries: [{ type: 'notice', text: 'Compacted.' }] });
    harness.sidebar.receive({ type: 'text-delta', taskId: 't1', text: 'After.' });
    await turnEnd();
    expect(harness.scheduler.pending).toBe(1);
    expect(streamingElement(harness).textContent).toBe('');
    harness.scheduler.runFrame();
    expect(harness.root.querySelector('.transcript-notice')!.textContent).toContain('Compacted.');
    expect(streamingElement(harness).textContent).toBe('After.');
  });

  it('of a task not shown change nothing and ask for no frame', async () => {
    const harness = streamingHarness();
    const requestedBefore = harness.scheduler.requested;
    harness.sidebar.receive({ type: 'text-delta', taskId: 't2', text: 'elsewhere' });
    await turnEnd();
    expect(harness.root.textContent).not.toContain('elsewhere');
    expect(harness.scheduler.requested).toBe(requestedBefore);
  });
});
