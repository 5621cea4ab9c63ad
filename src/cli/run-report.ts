/**
 * What a caller outside the process gets back from a run (`agent-team mcp`, `agent-team serve --a2a`):
 * the run's result and the edits its tasks proposed, as unified diffs that were never applied.
 */
import type { TaskSnapshot } from '../engine/tasks/types.js';
import { isTerminal } from '../engine/tasks/types.js';
import { formatTaskResult } from '../engine/team/delegation/task-result-text.js';
import type { CliEngine } from './cli-engine.js';

/** The task's end snapshot once its whole tree has ended (background subagents included). */
export async function settled(engine: CliEngine, taskId: string): Promise<TaskSnapshot> {
  for (;;) {
    const open = engine.taskManager.treeOf(taskId).filter((task) => !isTerminal(task.status));
    if (open.length === 0) return engine.taskManager.get(taskId) as TaskSnapshot;
    await Promise.all(open.map((task) => engine.taskManager.wait(task.id)));
  }
}

/** Diffs of the edits the run's tasks proposed (never applied), one block per file. */
export function proposedDiffs(engine: CliEngine, rootId: string): string[] {
  return engine.changes
    .list()
    .filter((changeSet) => engine.taskManager.get(changeSet.taskId)?.rootId === rootId)
    .flatMap((changeSet) => changeSet.snapshot().files.map((file) => `Proposed by ${changeSet.taskId} (${changeSet.role}), not applied:\n${file.diff}`));
}

/** The run's result and, as unified diffs, the edits its tasks proposed (never applied). */
export function describeRun(engine: CliEngine, root: TaskSnapshot): string {
  return [formatTaskResult(root), ...proposedDiffs(engine, root.id)].join('\n\n');
}
