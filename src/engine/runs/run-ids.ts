/**
 * Task ids for a process that writes into a run history it did not load whole: `t<n>` past the highest
 * the history holds, skipping any it knows. A run's id is never given again while it is kept, nor after
 * retention removed it while newer runs remain, so `--continue t3` or a run file never reaches a
 * different run than the one it named.
 */
import type { RunLog } from './run-log.js';

export function idsAfter(runLog: Pick<RunLog, 'runs' | 'runOf'>): () => string {
  let next = 1;
  for (const run of runLog.runs()) {
    for (const taskId of run.taskIds) {
      const number = /^t(\d{1,15})$/.exec(taskId)?.[1];
      if (number !== undefined) next = Math.max(next, Number(number) + 1);
    }
  }
  return () => {
    for (;;) {
      const id = `t${next++}`;
      if (runLog.runOf(id) === undefined) return id;
    }
  };
}
