// @vitest-environment jsdom
/** The detail pane shows a task's ancestor tasks with its prompt, as context, and nothing when it has none. */
import { describe, expect, it } from 'vitest';
import { click, makeTask, mountHarness, snapshotMessage } from './support/harness.js';

describe('the detail pane: ancestor tasks', () => {
  it('lists them, outermost first, above the prompt; hides the list for a task without them', () => {
    const harness = mountHarness();
    harness.send(
      snapshotMessage([
        makeTask({ id: 't3', role: 'helper', description: 'Tokens' }),
        makeTask({ id: 't1', role: 'coordinator', description: 'Rewrite' }),
      ]),
    );
    click(harness.row('t3'));
    harness.scheduler.runFrame();
    harness.send({
      type: 'task-detail',
      taskId: 't3',
      prompt: 'List the tokens.',
      ancestorTasks: ['Rewrite the parser', 'Survey the lexer'],
    });
    const pane = harness.root.querySelector<HTMLElement>('.detail')!;
    const ancestors = pane.querySelector<HTMLElement>('.detail-ancestors')!;
    expect(ancestors.hidden).toBe(false);
    expect(ancestors.textContent).toContain('Ancestor tasks (context only; the task is below):');
    expect([...ancestors.querySelectorAll('li')].map((item) => item.textContent)).toEqual(['Rewrite the parser', 'Survey the lexer']);
    expect(ancestors.compareDocumentPosition(pane.querySelector('.detail-prompt')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    click(harness.row('t1'));
    harness.scheduler.runFrame();
    harness.send({ type: 'task-detail', taskId: 't1', prompt: 'Rewrite the parser' });
    expect(ancestors.hidden).toBe(true);
  });
});
