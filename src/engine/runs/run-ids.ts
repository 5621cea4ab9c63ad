/**
 * Task ids for a process that writes into a run history it did not load whole: `t<n>` past the highest
 * the history holds, skipping any it knows. A run's id is never given again while it is kept, nor after
 * retention removed it while newer runs remain, so `--continue t3` or a run file never reaches a
 * different run than the one it named. `namesInFolder`: the files of the run folder; an id that names one
 * (`t1.jsonl` or `t1.lock` that no index line lists: left by a crash, or planted in a repository) is
 * skipped too, so a new run never appends to a file it did not start.
 */
import type { RunLog } from './run-log.js';

export function idsAfter(runLog: Pick<RunLog, 'taskIds' | 'runOf'>, namesInFolder: Iterable<string> = []): () => string {
  let next = 1;
  const after = (taskId: string) => {
    const number = /^t(\d{1,15})$/.exec(taskId)?.[1];
    if (number !== undefined) next = Math.max(next, Number(number) + 1);
  };
  for (const taskId of runLog.taskIds()) after(taskId);
  for (const name of namesInFolder) after(name.replace(/\.(jsonl|lock)$/, ''));
  return () => {
    for (;;) {
      const id = `t${next++}`;
      if (runLog.runOf(id) === undefined) return id;
    }
  };
}
