// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { click, makeTask, mountHarness, snapshotMessage } from './support/harness.js';

function selected(status: 'waiting' | 'running' | 'completed', overrides: { parentId?: string; role?: string } = {}) {
  const harness = mountHarness();
  const tasks = [
    makeTask({
      id: 't1',
      role: overrides.role ?? 'clarifier',
      description: 'Clarify dates',
      status,
      transcriptLength: 1,
      ...(overrides.parentId ? { parentId: overrides.parentId, rootId: overrides.parentId, depth: 1 } : {}),
    }),
  ];
  if (overrides.parentId) tasks.unshift(makeTask({ id: overrides.parentId, role: 'coordinator', description: 'Root', status: 'running' }));
  harness.send(snapshotMessage(tasks));
  click(harness.row('t1'));
  harness.scheduler.runFrame();
  harness.send({
    type: 'transcript',
    taskId: 't1',
    index: 0,
    entries: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'AskUser', input: { question: 'Which timezone?' } }],
  });
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
    expect(harness.posted.filter((message) => message.type === 'send-message')).toEqual([
      { type: 'send-message', taskId: 't1', text: 'UTC, always.' },
    ]);
    expect(textarea.value).toBe('');
    expect(composer.querySelector('.composer-status')!.textContent).toBe('Sending…');
    harness.send({ type: 'message-sent', taskId: 't1', outcome: 'answered' });
    harness.scheduler.runFrame();
    expect(composer.querySelector('.composer-status')!.textContent).toBe('Answer sent.');
  });

  it('offers End chat while a chat agent waits for a reply (its last entry is its message, not a question)', () => {
    const { harness, composer } = selected('waiting');
    const endChat = composer.querySelector<HTMLButtonElement>('button[aria-label="End chat"]')!;
    expect(endChat.hidden).toBe(true);
    harness.send({ type: 'transcript', taskId: 't1', index: 1, entries: [{ type: 'text', text: 'Here is the draft.' }] });
    harness.scheduler.runFrame();
    expect(endChat.hidden).toBe(false);
    expect(composer.querySelector<HTMLElement>('.composer-question')!.hidden).toBe(true);
    click(endChat);
    expect(harness.posted.filter((message) => message.type === 'end-chat')).toEqual([{ type: 'end-chat', taskId: 't1' }]);
  });

  it('is a Message box while the task runs, sent with Ctrl+Enter; an empty box sends nothing', () => {
    const { harness, composer, textarea } = selected('running');
    expect(textarea.getAttribute('aria-label')).toBe('Message');
    expect(composer.querySelector<HTMLElement>('.composer-question')!.hidden).toBe(true);
    textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true, cancelable: true }));
    expect(harness.posted.filter((message) => message.type === 'send-message')).toEqual([]);
    textarea.value = 'Look at b.ts too.';
    textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true, cancelable: true }));
    expect(harness.posted.filter((message) => message.type === 'send-message')).toEqual([
      { type: 'send-message', taskId: 't1', text: 'Look at b.ts too.' },
    ]);
  });

  it('is a Follow-up box on a finished run, and hidden for a finished subtask or a finished workflow', () => {
    const { harness, composer, textarea } = selected('completed');
    expect(composer.hidden).toBe(false);
    expect(textarea.getAttribute('aria-label')).toBe('Follow-up');
    textarea.value = 'And the tests?';
    click(composer.querySelector('button[aria-label="Send"]')!);
    harness.send({ type: 'message-sent', taskId: 't1', outcome: 'follow-up' });
    harness.scheduler.runFrame();
    expect(composer.querySelector('.composer-status')!.textContent).toBe('Follow-up started: it runs under this task.');
    expect(selected('completed', { parentId: 't0' }).composer.hidden).toBe(true);
    expect(selected('completed', { role: 'workflow' }).composer.hidden).toBe(true);
  });
});
