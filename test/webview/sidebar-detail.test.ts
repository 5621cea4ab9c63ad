// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { type ChangeSummary } from '../../src/shared/protocol.js';
import { click, makeTask, mountHarness, pressKey, snapshotMessage } from './support/harness.js';

const task = makeTask({
  id: 't1',
  role: 'researcher',
  description: 'Find usages',
  model: 'anthropic/claude-sonnet-4-5',
  usage: { inputTokens: 1_200, outputTokens: 340 },
  treeUsage: { inputTokens: 1_200, outputTokens: 340 },
  transcriptLength: 3,
});

/** A sidebar with `task` selected and the host's answer to that: its detail (prompt, no output yet). */
function selectedHarness() {
  const harness = mountHarness();
  harness.send(snapshotMessage([task]));
  click(harness.row('t1'));
  harness.scheduler.runFrame();
  harness.send({ type: 'task-detail', taskId: 't1', prompt: 'Find every caller of parse()' });
  return harness;
}

function detail(harness: ReturnType<typeof mountHarness>): HTMLElement {
  return harness.root.querySelector<HTMLElement>('.detail')!;
}

describe('the detail pane', () => {
  it('opens on click: posts select-task once, marks the row selected and shows prompt, model and usage', () => {
    const harness = selectedHarness();
    expect(harness.posted.filter((message) => message.type === 'select-task')).toEqual([{ type: 'select-task', taskId: 't1' }]);
    expect(harness.row('t1').getAttribute('aria-selected')).toBe('true');
    const pane = detail(harness);
    expect(pane.hidden).toBe(false);
    expect(pane.querySelector('.detail-title')!.textContent).toBe('researcher: Find usages');
    expect(pane.querySelector('.detail-prompt')!.textContent).toBe('Find every caller of parse()');
    expect(pane.querySelector('.detail-meta')!.textContent).toContain('anthropic/claude-sonnet-4-5');
    expect(pane.querySelector('.detail-meta')!.textContent).toContain('1,200 in, 340 out');
    expect(pane.querySelector('.transcript-status')!.textContent).toBe('Loading transcript…');
    expect(harness.savedState.value).toMatchObject({ selectedTaskId: 't1' });
  });

  it('shows the prompt and the output that come with the task-detail message, for the selected task only', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([task, makeTask({ id: 't2', createdAt: task.createdAt - 1 })]));
    click(harness.row('t1'));
    harness.scheduler.runFrame();
    const pane = detail(harness);
    // Selected, the detail not here yet: the pane opens with what the tree knows, and no result.
    expect(pane.hidden).toBe(false);
    expect(pane.querySelector('.detail-prompt')!.textContent).toBe('');
    expect(pane.querySelector<HTMLElement>('.result')!.hidden).toBe(true);

    harness.send({ type: 'task-detail', taskId: 't2', prompt: 'not the selected one', output: 'nor this' });
    expect(pane.textContent).not.toContain('not the selected one');
    harness.send({ type: 'task-detail', taskId: 't1', prompt: 'Find every caller of parse()' });
    expect(pane.querySelector('.detail-prompt')!.textContent).toBe('Find every caller of parse()');
    expect(pane.querySelector<HTMLElement>('.result')!.hidden).toBe(true);
    harness.send({ type: 'task-upsert', now: 0, tasks: [{ ...task, status: 'completed' }] });
    harness.send({ type: 'task-detail', taskId: 't1', prompt: 'Find every caller of parse()', output: 'Three callers.' });
    expect(pane.querySelector<HTMLElement>('.result')!.hidden).toBe(false);
    expect(pane.querySelector('.detail-result')!.textContent!.trim()).toBe('Three callers.');

    // Another selection starts without the first one's detail.
    click(harness.row('t2'));
    harness.scheduler.runFrame();
    expect(harness.posted.at(-1)).toEqual({ type: 'select-task', taskId: 't2' });
    expect(pane.querySelector('.detail-prompt')!.textContent).toBe('');
    expect(pane.querySelector<HTMLElement>('.result')!.hidden).toBe(true);
  });

  it('selects with Enter too', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([task]));
    pressKey(harness.row('t1'), 'Enter');
    harness.scheduler.runFrame();
    expect(harness.posted).toContainEqual({ type: 'select-task', taskId: 't1' });
    expect(detail(harness).hidden).toBe(false);
  });

  it('shows the transcript: text streams, then tool calls with pretty JSON input and their results', () => {
    const harness = selectedHarness();
    harness.send({ type: 'transcript', taskId: 't1', index: 0, entries: [{ type: 'text', text: 'Looking **now**.' }] });
    harness.send({ type: 'text-delta', taskId: 't1', text: 'Reading ' });
    harness.send({ type: 'text-delta', taskId: 't1', text: 'files' });
    const pane = detail(harness);
    expect(pane.querySelector('.transcript-text strong')!.textContent).toBe('now');
    expect(pane.querySelector<HTMLElement>('.transcript-streaming')!.textContent).toBe('Reading files');

    harness.send({
      type: 'transcript',
      taskId: 't1',
      index: 1,
      entries: [
        { type: 'text', text: 'Reading files' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'Read', input: { file_path: 'src/parse.ts', limit: 10 } },
      ],
    });
    expect(pane.querySelector<HTMLElement>('.transcript-streaming')!.hidden).toBe(true);
    const call = pane.querySelector('details.tool-call')!;
    expect(call.querySelector('summary')!.textContent).toContain('Read');
    expect(call.querySelector('summary')!.textContent).toContain('src/parse.ts');
    expect(call.querySelector('.tool-input')!.textContent).toBe('{\n  "file_path": "src/parse.ts",\n  "limit": 10\n}');

    harness.send({
      type: 'transcript',
      taskId: 't1',
      index: 3,
      entries: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'Read', output: 'export function parse', isError: false }],
    });
    expect(call.querySelector('.tool-output')!.textContent).toBe('export function parse');
    expect(pane.querySelectorAll('.transcript-entries > *')).toHaveLength(3);
  });

  it('re-requests the transcript when entries went missing, and ignores other tasks\u2019 transcripts', () => {
    const harness = selectedHarness();
    harness.send({ type: 'transcript', taskId: 't1', index: 0, entries: [{ type: 'text', text: 'one' }] });
    harness.posted.length = 0;
    harness.send({ type: 'transcript', taskId: 't1', index: 5, entries: [{ type: 'text', text: 'six' }] });
    expect(harness.posted).toEqual([{ type: 'select-task', taskId: 't1' }]);
    harness.send({ type: 'transcript', taskId: 'other', index: 0, entries: [{ type: 'text', text: 'not mine' }] });
    harness.send({ type: 'text-delta', taskId: 'other', text: 'not mine either' });
    expect(detail(harness).textContent).not.toContain('not mine');
  });

  it('renders the final answer as Markdown, and the error or stop reason', () => {
    const harness = selectedHarness();
    harness.send({ type: 'task-upsert', now: 0, tasks: [{ ...task, status: 'completed' }] });
    harness.send({ type: 'task-detail', taskId: 't1', prompt: 'p', output: '# Done\n\n- `parse` has **3** callers' });
    const result = detail(harness).querySelector('.detail-result')!;
    expect(result.querySelector('h1')!.textContent).toBe('Done');
    expect(result.querySelector('li code')!.textContent).toBe('parse');
    expect(detail(harness).querySelector('.result h3')!.textContent).toBe('Result');

    harness.send({ type: 'task-upsert', now: 0, tasks: [{ ...task, status: 'failed', error: 'The provider rejected the key.' }] });
    expect(detail(harness).querySelector('.detail-reason')!.textContent).toBe('The provider rejected the key.');
    harness.send({
      type: 'task-upsert',
      now: 0,
      tasks: [{ ...task, status: 'stopped', stopReason: { kind: 'budget', detail: '50,000 tokens' } }],
    });
    harness.send({ type: 'task-detail', taskId: 't1', prompt: 'p', output: 'partial' });
    expect(detail(harness).querySelector('.detail-reason')!.textContent).toBe('budget exceeded: 50,000 tokens');
    expect(detail(harness).querySelector('.result h3')!.textContent).toBe('Partial output');
  });

  it('offers Stop for a running task and posts stop-task', () => {
    const harness = selectedHarness();
    harness.posted.length = 0;
    const stop = detail(harness).querySelector<HTMLButtonElement>('.detail-stop')!;
    expect(stop.hidden).toBe(false);
    expect(stop.getAttribute('aria-label')).toBe('Stop researcher: Find usages');
    click(stop);
    expect(harness.posted).toEqual([{ type: 'stop-task', taskId: 't1' }]);
  });

  it('shows the change set with a review button and Accept/Reject per pending file', () => {
    const harness = selectedHarness();
    const summary: ChangeSummary = {
      taskId: 't1',
      files: [
        { path: 'src/a.ts', added: 10, removed: 2, status: 'pending' },
        { path: 'src/b.ts', added: 2, removed: 1, status: 'accepted' },
      ],
      added: 12,
      removed: 3,
      pending: 1,
    };
    harness.send({ type: 'change-summary', summaries: [summary] });
    harness.posted.length = 0;
    const pane = detail(harness);
    const review = pane.querySelector<HTMLButtonElement>('.review-changes')!;
    expect(review.textContent).toBe('Review changes (+12 \u22123)');
    click(review);
    click(pane.querySelector('[aria-label="Accept src/a.ts"]')!);
    click(pane.querySelector('[aria-label="Reject src/a.ts"]')!);
    expect(pane.querySelector('[aria-label="Accept src/b.ts"]')).toBeNull();
    expect(harness.posted).toEqual([
      { type: 'review-changes', taskId: 't1' },
      { type: 'accept-file', taskId: 't1', path: 'src/a.ts' },
      { type: 'reject-file', taskId: 't1', path: 'src/a.ts' },
    ]);
    harness.send({ type: 'change-summary', summaries: [{ ...summary, files: [], added: 0, removed: 0, pending: 0 }] });
    expect(pane.querySelector<HTMLElement>('.changes')!.hidden).toBe(true);
  });

  it('closes, deselecting and telling the host', () => {
    const harness = selectedHarness();
    harness.posted.length = 0;
    click(detail(harness).querySelector('.detail-close')!);
    harness.scheduler.runFrame();
    expect(harness.posted).toEqual([{ type: 'select-task', taskId: null }]);
    expect(detail(harness).hidden).toBe(true);
    expect(harness.row('t1').getAttribute('aria-selected')).toBe('false');
  });

  it('closes when the selected task is removed', () => {
    const harness = selectedHarness();
    harness.send({ type: 'task-removed', taskIds: ['t1'] });
    expect(detail(harness).hidden).toBe(true);
  });
});

describe('closing the detail pane', () => {
  it('gives keyboard focus back to the task row', () => {
    const harness = selectedHarness();
    click(detail(harness).querySelector('.detail-close')!);
    expect(document.activeElement).toBe(harness.row('t1'));
  });
});
