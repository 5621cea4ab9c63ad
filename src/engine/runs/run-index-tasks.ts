/**
 * Which run each task belongs to (run-index.ts `runOf`): 20,000 entries for 10,000 runs, so not built at
 * open (B14) but at the first lookup or change, from the runs as they are then. Built before any change,
 * it is what recording each run read, then each change, in turn would have made: a task two runs list
 * belongs to the later one, and a run deleted takes its tasks' entries with it.
 */
interface RunTasks {
  runId: string;
  taskIds: readonly string[];
}

export class TaskLookup {
  private byTask: Map<string, string> | undefined;

  /** `runs`: every run, oldest first, when the lookup is first needed. */
  constructor(private readonly runs: () => Iterable<RunTasks>) {}

  runOf(taskId: string): string | undefined {
    return this.built().get(taskId);
  }

  /** The run's tasks are its now (called with its new state, before the run's own entry changes). */
  recorded(run: RunTasks): void {
    const byTask = this.built();
    for (const taskId of run.taskIds) byTask.set(taskId, run.runId);
  }

  /** The run is gone: its tasks no longer lead to it. */
  removed(run: RunTasks): void {
    const byTask = this.built();
    for (const taskId of run.taskIds) if (byTask.get(taskId) === run.runId) byTask.delete(taskId);
  }

  private built(): Map<string, string> {
    if (this.byTask) return this.byTask;
    const byTask = new Map<string, string>();
    for (const run of this.runs()) for (const taskId of run.taskIds) byTask.set(taskId, run.runId);
    return (this.byTask = byTask);
  }
}
