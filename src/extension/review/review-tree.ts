/** Which proposals a review covers: a task's and every task's below it (a coordinator's edits are its subagents'). */
import type { ChangeSetRegistry, TaskManager } from '../../engine/index.js';
import { pendingFiles } from '../change-summaries.js';
import type { ReviewEntry } from './multi-diff-review.js';

/** The task and all its descendants, parents first; just the id when the manager does not know it. */
export function subtreeIds(taskManager: TaskManager, taskId: string): string[] {
  const ids = [taskId];
  for (let index = 0; index < ids.length; index++) ids.push(...taskManager.children(ids[index]).map((child) => child.id));
  return ids;
}

/** Files waiting for review in the task's tree, each with the task and role that proposed it. */
export function pendingInTree(changes: ChangeSetRegistry, taskManager: TaskManager, taskId: string): ReviewEntry[] {
  const entries: ReviewEntry[] = [];
  for (const id of subtreeIds(taskManager, taskId)) {
    const changeSet = changes.get(id);
    if (!changeSet) continue;
    for (const file of pendingFiles(changeSet)) entries.push({ taskId: id, role: changeSet.role, file });
  }
  return entries;
}

/** Why a task's proposals are not those of a finished piece of work, or undefined when they are. */
export function unfinishedReason(taskManager: TaskManager, taskId: string): string | undefined {
  const task = taskManager.get(taskId);
  if (!task || task.status === 'completed') return undefined;
  if (task.status === 'failed' || task.status === 'stopped' || task.status === 'interrupted')
    return `${task.role} ${task.id} ${task.status}`;
  return `${task.role} ${task.id} is still ${task.status}`;
}
