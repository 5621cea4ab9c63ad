/**
 * Token budgets over a tree: a task's usage counts for it and every ancestor, and the outermost task whose
 * budget its tree has passed is the one to stop (with all below it).
 */
import type { StopReason } from '../errors.js';
import type { Usage } from '../model/types.js';
import { hasEnded, type TaskRecord } from './task-record.js';
import { tokenCount } from './work-outcome.js';

/**
 * Adds `delta` to `record` and its ancestors (`chain`, the record first, the root last) and returns the
 * tasks whose snapshot changed, and the task to stop for its budget, if any.
 */
export function spendTokens(record: TaskRecord, chain: readonly TaskRecord[], delta: Usage): { updated: TaskRecord[]; overBudget?: { task: TaskRecord; reason: StopReason } } {
  const inputTokens = tokenCount(delta?.inputTokens);
  const outputTokens = tokenCount(delta?.outputTokens);
  if (hasEnded(record) || inputTokens + outputTokens === 0) return { updated: [] };
  record.usage = { inputTokens: record.usage.inputTokens + inputTokens, outputTokens: record.usage.outputTokens + outputTokens };
  const updated: TaskRecord[] = [];
  for (const node of chain) {
    node.treeSpend += inputTokens + outputTokens;
    // An ended task's snapshot is final; its budget still counts what its background descendants spend.
    if (hasEnded(node)) continue;
    node.treeUsage = { inputTokens: node.treeUsage.inputTokens + inputTokens, outputTokens: node.treeUsage.outputTokens + outputTokens };
    updated.push(node);
  }
  for (const node of [...chain].reverse()) {
    if (node.maxTokens !== undefined && node.treeSpend > node.maxTokens) {
      return { updated, overBudget: { task: node, reason: { kind: 'budget', detail: `task ${node.id} and its subtasks used ${node.treeSpend} tokens, over the budget of ${node.maxTokens}` } } };
    }
  }
  return { updated };
}
