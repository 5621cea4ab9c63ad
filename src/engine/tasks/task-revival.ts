/**
 * An interrupted task made ready to go on: a fresh record (queued, new signal, new end) that keeps what
 * the task was (its id and place in the tree, its transcript, its spend, its children) so the tree, the
 * budgets and the history read as one task that paused, not as a new one. The work is new: the caller
 * builds it from the run log (the conversation up to its last completed turn).
 */
import { TaskError } from './task-error.js';
import { type TaskRecord, createTaskRecord, statusOf } from './task-record.js';
import type { TaskWork } from './work.js';

export function revivedRecord(old: TaskRecord, parent: TaskRecord | undefined, work: TaskWork, now: number): TaskRecord {
  if (statusOf(old) !== 'interrupted') {
    throw new TaskError('invalid-options', `Task ${old.id} is ${statusOf(old)}: only an interrupted task can be resumed.`);
  }
  const options = {
    parentId: old.parentId,
    role: old.role,
    description: old.description,
    prompt: old.prompt,
    ancestorTasks: old.ancestorTasks,
    mode: old.background ? 'background' : 'foreground',
    maxTokens: old.maxTokens,
    maxUsd: old.maxUsd,
    followUp: old.followUp,
    work,
  } as const;
  const fresh = createTaskRecord(old.id, options, parent, now);
  const kept: Partial<TaskRecord> = {
    rootId: old.rootId,
    depth: old.depth,
    createdAt: old.createdAt,
    background: old.background,
    usage: old.usage,
    treeUsage: old.treeUsage,
    treeSpend: old.treeSpend,
    cost: old.cost,
    treeCost: old.treeCost,
    treeSpendUsd: old.treeSpendUsd,
    transcript: [...old.transcript],
    transcriptLength: old.transcriptLength,
    droppedTranscriptEntries: old.droppedTranscriptEntries,
    childIds: [...old.childIds],
    ...(old.model !== undefined ? { model: old.model } : {}),
    ...(old.usageByModel !== undefined ? { usageByModel: old.usageByModel } : {}),
    ...(old.todos !== undefined ? { todos: old.todos } : {}),
  };
  return Object.assign(fresh, kept);
}
