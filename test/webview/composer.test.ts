// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { click, makeTask, mountHarness, snapshotMessage } from './support/harness.js';

function selected(status: 'waiting' | 'running' | 'completed') {
  const harness = mountHarness();
  harness.send(snapshotMessage([makeTask({ id: 't1', role: 'clarifier', description: 'Clarify dates', status, transcriptLength: 1 })]));
  click(harness.row('t1'));
  harness.scheduler.runFrame();
  harness.send({ type: 'transcript', taskId: 't1', index: 0, entries: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'AskUser', input: { question: 'Which timezone?' } }] });
  harness.scheduler.runFrame();
  const composer = harness.root.querySelector<HTMLElement>('.detail .composer')!;
  return { harness, composer, textarea: composer.querySelector('textarea')! };
}

describe('the composer of the detail view', () => {
  it('is an Answer box under the question while the task waits; Send posts the answer and clears the box', () => {
    const { harness, composer, textarea } = selected('waiting');
    expect(composer.hidden).toBe(false);
    expect(textarea.getAttribute('aria-label')).toBe('Answer');
    expect(composer.querySelector('.composer-question')!.textContent).toBe('Which timezone?');
    textarea.value = '  UTC, always.  ';
    click(composer.querySelector('button[aria-label="Send"]')!);
    expect(harness.posted.filter((message) => message.type === 'send-message')).toEqual([{ type: 'send-message', taskId: 't1', text: 'UTC, always.' }]);
    expect(textarea.value).toBe('');
    expect(composer.querySelector('.composer-status')!.textContent).toBe('Sending…');
    harness.send({ type: 'message-sent', taskId: 't1', answered: true });
    harness.scheduler.runFrame();
    expect(composer.querySelector('.composer-status')!.textContent).toBe('Answer sent.');
  });

  it('is a Message box while the task runs, sent with Ctrl+Enter; an empty box sends nothing', () => {
    const { harness, composer, textarea } = selected('running');
    expect(textarea.getAttribute('aria-label')).toBe('Message');
    expect(composer.querySelector<HTMLElement>('.composer-question')!.hidden).toBe(true);
    textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true, cancelable: true }));
    expect(harness.posted.filter((message) => message.type === 'send-message')).toEqual([]);
    textarea.value = 'Look at b.ts too.';
    textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true, cancelable: true }));
    expect(harness.posted.filter((message) => message.type === 'send-message')).toEqual([{ type: 'send-message', taskId: 't1', text: 'Look at b.ts too.' }]);
  });

  it('is hidden for a finished task', () => {
    const { composer } = selected('completed');
    expect(composer.hidden).toBe(true);
  });
});
