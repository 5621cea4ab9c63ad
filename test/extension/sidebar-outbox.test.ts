/**
 * What the sidebar is sent, and when: after a quiet spell a change goes out at once (a model's first
 * words show without waiting out the delay); a burst after it is gathered and sent once per delay.
 */
import { describe, expect, it } from 'vitest';
import { SidebarOutbox } from '../../src/extension/sidebar/outbox.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import type { HostMessage } from '../../src/shared/protocol.js';

describe('SidebarOutbox', () => {
  it('sends the first change after a quiet spell at once, then at most once per delay', async () => {
    const clock = new ManualClock();
    const posted: Array<{ at: number; message: HostMessage }> = [];
    const outbox = new SidebarOutbox({ clock, flushDelayMs: 50, post: (message) => posted.push({ at: clock.now(), message }) });
    const start = clock.now();
    outbox.textDelta('t1', 'The ');
    outbox.textDelta('t1', 'answer');
    await clock.advance(0);
    // The same event's changes together, with no wait.
    expect(posted.map((entry) => [entry.at - start, entry.message])).toEqual([
      [0, { type: 'text-delta', taskId: 't1', text: 'The answer' }],
    ]);
    outbox.textDelta('t1', ' is');
    await clock.advance(10);
    outbox.textDelta('t1', ' 42.');
    await clock.advance(40);
    // What came within the delay of the last batch waited for it, gathered.
    expect(posted.map((entry) => [entry.at - start, entry.message])).toEqual([
      [0, { type: 'text-delta', taskId: 't1', text: 'The answer' }],
      [50, { type: 'text-delta', taskId: 't1', text: ' is 42.' }],
    ]);
    // Quiet again: the next change goes out at once.
    await clock.advance(500);
    outbox.textDelta('t1', '!');
    await clock.advance(0);
    expect(posted.at(-1)).toEqual({ at: start + 550, message: { type: 'text-delta', taskId: 't1', text: '!' } });
  });

  it('sends words at the end of the event\u2019s turn, without a timer, and a status change just before does not hold them back', async () => {
    const clock = new ManualClock();
    const posted: Array<{ at: number; type: string }> = [];
    const outbox = new SidebarOutbox({ clock, post: (message) => posted.push({ at: clock.now(), type: message.type }) });
    const start = clock.now();
    outbox.detail({ taskId: 't1', prompt: 'p' });
    await Promise.resolve();
    // A microtask, not a timer: nothing waited on the clock.
    expect(posted).toEqual([{ at: start, type: 'task-detail' }]);
    await clock.advance(2);
    // Within the default frame (16 ms) of that batch, words still go out at once: their frame counts from the
    // last batch that carried words.
    outbox.textDelta('t1', 'The');
    await Promise.resolve();
    expect(posted.at(-1)).toEqual({ at: start + 2, type: 'text-delta' });
    // A second chunk within a frame of the first waits for the frame to be up.
    await clock.advance(5);
    outbox.textDelta('t1', ' answer');
    await Promise.resolve();
    expect(posted).toHaveLength(2);
    await clock.advance(11);
    expect(posted.at(-1)).toEqual({ at: start + 18, type: 'text-delta' });
  });
});
