// @vitest-environment jsdom
/** The run's plan under the tree (todo-view.ts) and a plan question's one-click answers (composer-view.ts). */
import { describe, expect, it } from 'vitest';
import { click, makeTask, mountHarness, snapshotMessage } from './support/harness.js';

const todos = [
  { content: 'Find the parser', status: 'completed' as const, activeForm: 'Finding the parser' },
  { content: 'Explain it', status: 'in_progress' as const, activeForm: 'Explaining it' },
  { content: 'Check the tests', status: 'pending' as const, activeForm: 'Checking the tests' },
];

describe('the plan panel', () => {
  it("shows the newest run's todo list, live, and the selected run's when another is selected; hidden for a run without one", () => {
    const harness = mountHarness();
    harness.send(
      snapshotMessage([
        makeTask({ id: 't1', role: 'coordinator', description: 'Older run', status: 'completed', createdAt: 1 }),
        makeTask({ id: 't2', role: 'coordinator', description: 'Explain the parser', status: 'running', createdAt: 2, todos }),
      ]),
    );
    harness.scheduler.runFrame();
    const panel = harness.root.querySelector<HTMLElement>('.todo-panel')!;
    expect(panel.hidden).toBe(false);
    expect(panel.getAttribute('aria-label')).toBe('Plan of Explain the parser');
    expect(panel.querySelector('.todo-heading')!.textContent).toBe('Plan \u00b7 1/3 done');
    expect([...panel.querySelectorAll('li')].map((item) => [item.getAttribute('data-status'), item.textContent])).toEqual([
      ['completed', 'Find the parser'],
      ['in_progress', 'Explaining it'],
      ['pending', 'Check the tests'],
    ]);
    harness.send({
      type: 'task-upsert',
      now: 3,
      tasks: [
        makeTask({
          id: 't2',
          role: 'coordinator',
          description: 'Explain the parser',
          status: 'running',
          createdAt: 2,
          todos: todos.map((todo) => ({ ...todo, status: 'completed' as const })),
        }),
      ],
    });
    harness.scheduler.runFrame();
    expect(panel.querySelector('.todo-heading')!.textContent).toBe('Plan \u00b7 3/3 done');
    click(harness.row('t1'));
    harness.scheduler.runFrame();
    expect(panel.hidden).toBe(true);
  });
});

describe('a plan question', () => {
  it('offers Approve plan and Stop run beside the Answer box; each sends its word', () => {
    const harness = mountHarness();
    harness.send(
      snapshotMessage([makeTask({ id: 't1', role: 'coordinator', description: 'Explain', status: 'waiting', transcriptLength: 1, todos })]),
    );
    click(harness.row('t1'));
    harness.scheduler.runFrame();
    harness.send({
      type: 'transcript',
      taskId: 't1',
      index: 0,
      entries: [{ type: 'notice', text: 'Approve this plan before any subagent starts?\n\n[x] Find the parser' }],
    });
    harness.scheduler.runFrame();
    const composer = harness.root.querySelector<HTMLElement>('.detail .composer')!;
    expect(composer.querySelector('.composer-question')!.textContent).toContain('[x] Find the parser');
    expect(composer.querySelector('textarea')!.getAttribute('aria-label')).toBe('Answer');
    click(composer.querySelector('button[aria-label="Approve plan"]')!);
    click(composer.querySelector('button[aria-label^="Stop run"]')!);
    expect(harness.posted.filter((message) => message.type === 'send-message')).toEqual([
      { type: 'send-message', taskId: 't1', text: 'approve' },
      { type: 'send-message', taskId: 't1', text: 'stop' },
    ]);
    expect(composer.querySelector<HTMLElement>('button[aria-label="End chat"]')!.hidden).toBe(true);
  });
});
