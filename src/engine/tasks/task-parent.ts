import { statusOf, type TaskRecord } from './task-record.js';
import { TaskError } from './task-error.js';
import type { TaskTree } from './task-tree.js';
import { isTerminal } from './types.js';

/**
 * The parent a new task starts under: a running task (a subtask), or a finished one (`followUp`: a run's
 * next message, or a revision the user asked of one of its finished subagents). Throws a `TaskError`
 * saying why for an unknown parent, or one in the wrong state.
 */
export function parentFor(tree: TaskTree, parentId: string | null, followUp: boolean): TaskRecord | undefined {
  if (parentId === null) return undefined;
  const parent = tree.get(parentId);
  if (!parent) throw new TaskError('unknown-task', `There is no task ${parentId} to start a subtask under.`);
  const status = statusOf(parent);
  if (followUp) {
    if (!isTerminal(status))
      throw new TaskError('invalid-options', `Task ${parentId} is still running; only a finished task can be followed up.`);
    return parent;
  }
  if (isTerminal(status))
    throw new TaskError(
      'parent-ended',
      `Task ${parentId} has already ${status === 'stopped' || status === 'interrupted' ? `been ${status}` : status}; it cannot start subtasks.`,
    );
  return parent;
}
