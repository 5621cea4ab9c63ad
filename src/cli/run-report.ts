/**
 * What a caller outside the process gets back from a run (`agent-team mcp`, `agent-team serve --a2a`):
 * the run's result and the edits its tasks proposed, as unified diffs that were never applied.
 */
import { treeSettled } from '../engine/tasks/tree-settled.js';
import type { TaskSnapshot } from '../engine/tasks/types.js';
import { formatTaskResult } from '../engine/delegation/task-result-text.js';
import type { CliEngine } from './cli-engine.js';

/** The task's end snapshot once its whole tree has ended (background subagents included). */
export function settled(engine: CliEngine, taskId: string): Promise<TaskSnapshot> {
  return treeSettled(engine.taskManager, taskId);
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
