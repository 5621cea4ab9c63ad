/** `placeOf`: what a subagent's start reads of its task and its parent, without a snapshot, agrees with the snapshot. */
import { describe, expect, it } from 'vitest';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import type { TaskWork } from '../../src/engine/tasks/work.js';

/** Works until it is stopped (the manager's close stops it). */
const never: TaskWork = (context) =>
  new Promise((resolve) => context.signal.addEventListener('abort', () => resolve({ status: 'completed', output: '' }), { once: true }));

describe('a task’s place in its tree', () => {
  it('names its parent, root, prompt, follow-up mark and ancestor tasks as its snapshot does; nothing for an unknown id', async () => {
    const taskManager = new TaskManager({ clock: new ManualClock(), onWarning: () => {} });
    const root = await taskManager.start({
      role: 'coordinator',
      description: 'Rewrite',
      prompt: 'Rewrite the parser',
      mode: 'background',
      work: never,
    });
    const child = await taskManager.start({
      parentId: root.task.id,
      role: 'helper',
      description: 'Tokens',
      prompt: 'List the tokens.',
      ancestorTasks: ['Rewrite the parser'],
      mode: 'background',
      work: never,
    });
    expect(taskManager.placeOf(root.task.id)).toEqual({
      parentId: null,
      rootId: root.task.id,
      prompt: 'Rewrite the parser',
      followUp: false,
    });
    const place = taskManager.placeOf(child.task.id);
    expect(place).toEqual({
      parentId: root.task.id,
      rootId: root.task.id,
      prompt: 'List the tokens.',
      followUp: false,
      ancestorTasks: ['Rewrite the parser'],
    });
    expect(place?.ancestorTasks).toEqual(taskManager.get(child.task.id)?.ancestorTasks);
    expect(Object.isFrozen(place?.ancestorTasks)).toBe(true);
    expect(taskManager.placeOf('t404')).toBeUndefined();
    await taskManager.close();
  });
});
