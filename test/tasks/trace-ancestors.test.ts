/** A task's ancestor tasks are in the run trace, secrets redacted, and in its Markdown before the prompt. */
import { describe, expect, it } from 'vitest';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { buildRunTrace } from '../../src/engine/trace/run-trace.js';
import { renderTraceMarkdown } from '../../src/engine/trace/trace-markdown.js';

describe('the trace of a task with ancestors', () => {
  it('keeps the chain, outermost first, and shows it as context before the prompt', async () => {
    const taskManager = new TaskManager({ clock: new ManualClock() });
    const root = await taskManager.start({
      role: 'coordinator',
      description: 'Rewrite',
      prompt: 'Rewrite the parser',
      mode: 'background',
      work: async () => ({ status: 'completed', output: 'Done.' }),
    });
    const child = await taskManager.start({
      parentId: root.task.id,
      role: 'helper',
      description: 'Tokens',
      prompt: 'List the tokens.',
      ancestorTasks: ['Rewrite the parser', 'Survey the lexer with key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789'],
      mode: 'background',
      work: async () => ({ status: 'completed', output: 'Listed.' }),
    });
    await taskManager.wait(child.task.id);
    await taskManager.wait(root.task.id);
    const trace = await buildRunTrace(taskManager, new ChangeSetRegistry(), root.task.id, { secrets: [] });
    const traced = trace.tasks.find((task) => task.id === child.task.id);
    expect(traced?.ancestorTasks?.[0]).toBe('Rewrite the parser');
    expect(traced?.ancestorTasks?.[1]).not.toContain('sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789');
    expect(trace.run.ancestorTasks).toBeUndefined();
    const markdown = renderTraceMarkdown(trace);
    expect(markdown).toContain(`## ${child.task.id} helper: Tokens\n\n**Ancestor tasks** (context only, outermost first)\n\n`);
    expect(markdown.indexOf('1. Rewrite the parser')).toBeLessThan(markdown.indexOf('List the tokens.'));
    await taskManager.close();
  });
});
