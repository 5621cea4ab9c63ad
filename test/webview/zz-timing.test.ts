import { it } from 'vitest';
import { flattenTasks } from '../../src/webview/tree-model.js';
import { makeTask, startTime } from './support/harness.js';
it('timing', () => {
  const tasks = [];
  for (let i = 0; i < 10000; i++) tasks.push(makeTask({ id: `t${i}`, parentId: i % 5 === 0 ? null : `t${i - (i % 5)}`, createdAt: startTime + i }));
  const map = new Map(tasks.map((task) => [task.id, task]));
  for (let k = 0; k < 10; k++) {
    const t = performance.now(); flattenTasks(map, new Set()); console.log('flatten', (performance.now() - t).toFixed(1));
  }
});
