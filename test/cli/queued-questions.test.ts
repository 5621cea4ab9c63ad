/** "Queued for you" on the terminal: once per wait on stderr (queued-questions.ts), and in the live tree. */
import { describe, expect, it } from 'vitest';
import { QueuedQuestions } from '../../src/cli/queued-questions.js';
import { TerminalView } from '../../src/cli/terminal-view.js';
import type { TaskSnapshot } from '../../src/engine/tasks/types.js';
import { taskSnapshot } from '../support/task-snapshot.js';

/** A subagent waiting on a question. */
const task = (overrides: Partial<TaskSnapshot>): TaskSnapshot =>
  taskSnapshot({ id: 't3', parentId: 't1', depth: 1, role: 'names', description: 'Settle names', status: 'waiting', ...overrides });

describe('a question queued for you, on the terminal', () => {
  it('says once per wait on stderr which task waits, made safe, and again if it queues again later', () => {
    let text = '';
    const notices = new QueuedQuestions({ write: (chunk) => (text += chunk) });
    notices.handle({ type: 'task-update', task: task({ queuedForUser: true, description: 'Settle \x1b[31mnames' }) });
    notices.handle({ type: 'task-update', task: task({ queuedForUser: true, description: 'Settle \x1b[31mnames' }) });
    expect(text).toBe('\n[t3 names: Settle names] is queued for you: its question comes once you have answered the one before.\n');
    notices.handle({ type: 'task-update', task: task({}) });
    notices.handle({ type: 'task-update', task: task({ queuedForUser: true }) });
    expect(text.split('is queued for you').length).toBe(3);
  });

  it('the live tree shows the task waiting, queued for you', () => {
    let text = '';
    const view = new TerminalView({ write: (chunk) => (text += chunk), isTTY: true, columns: 200 }, () => 5_000);
    view.handle({
      type: 'task-start',
      task: task({ id: 't1', parentId: null, depth: 0, role: 'coordinator', description: 'Settle both', status: 'running' }),
    });
    view.handle({ type: 'task-update', task: task({ queuedForUser: true }) });
    expect(text).toContain('  ? [t3] names: Settle names  waiting, queued for you · 5s · 0 tokens');
  });
});
