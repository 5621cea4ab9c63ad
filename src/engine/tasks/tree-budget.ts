/**
 * Budgets over a tree, in tokens and in money: a task's usage (and its cost, at its model's price) counts
 * for it and every ancestor, and the outermost task whose budget its tree has passed is the one to stop
 * (with all below it).
 */
import type { StopReason } from '../errors.js';
import type { Cost } from '../model/cost-schema.js';
import { costOf, type ModelPrice } from '../model/model-prices.js';
import type { Usage } from '../model/types.js';
import { hasEnded, type TaskRecord } from './task-record.js';
import { tokenCount } from './work-outcome.js';
import { addModelUsage } from './usage-by-model.js';

/** What a spend or a new budget did: the tasks whose snapshot changed, and the tree to stop for its budget, if any. */
export interface BudgetChange {
  updated: TaskRecord[];
  overBudget?: { task: TaskRecord; reason: StopReason };
}

/**
 * Adds `delta` to `record` and its ancestors (`chain`, the record first, the root last), priced at the
 * record's model, and returns the tasks whose snapshot changed, and the task to stop for its budget (tokens
 * or money), if any.
 */
export function spendTokens(
  record: TaskRecord,
  chain: readonly TaskRecord[],
  delta: Usage,
  priceOf: (model: string | undefined) => ModelPrice | undefined = () => undefined,
): BudgetChange {
  const inputTokens = tokenCount(delta?.inputTokens);
  const outputTokens = tokenCount(delta?.outputTokens);
  const cachedInputTokens = Math.min(tokenCount(delta?.cachedInputTokens), inputTokens);
  if (hasEnded(record) || inputTokens + outputTokens === 0) return { updated: [] };
  const counted: Usage = { inputTokens, outputTokens, ...(cachedInputTokens > 0 ? { cachedInputTokens } : {}) };
  const price = priceOf(record.model);
  const spent: Cost = price ? { usd: costOf(counted, price), unpricedTokens: 0 } : { usd: 0, unpricedTokens: inputTokens + outputTokens };
  record.usage = frozenSum(record.usage, counted);
  record.cost = frozenCostSum(record.cost, spent);
  record.usageByModel = addModelUsage(record.usageByModel, record.model, counted, spent);
  const updated: TaskRecord[] = [];
  for (const node of chain) {
    node.treeSpend += inputTokens + outputTokens;
    node.treeSpendUsd += spent.usd;
    // An ended task's snapshot is final; its budget still counts what its background descendants spend.
    if (hasEnded(node)) continue;
    node.treeUsage = frozenSum(node.treeUsage, counted);
    node.treeCost = frozenCostSum(node.treeCost, spent);
    updated.push(node);
  }
  // The root first, without a reversed copy of the chain for every spend.
  for (let at = chain.length - 1; at >= 0; at--) {
    const node = chain[at]!;
    if (node.maxTokens !== undefined && node.treeSpend > node.maxTokens)
      return { updated, overBudget: { task: node, reason: tokenBudgetReason(node) } };
    if (node.maxUsd !== undefined && node.treeSpendUsd > node.maxUsd) {
      const detail = `task ${node.id} and its subtasks cost $${node.treeSpendUsd.toFixed(4)}, over the budget of $${node.maxUsd}`;
      return { updated, overBudget: { task: node, reason: { kind: 'budget', detail } } };
    }
  }
  return { updated };
}

/**
 * Tightens `record`'s token budget to `maxTokens` (a looser one, or one that is not a positive number,
 * changes nothing); its tree is to be stopped at once when what it has spent is already past the new one.
 */
export function tightenTokenBudget(record: TaskRecord, maxTokens: number): BudgetChange {
  if (hasEnded(record) || !(Number.isFinite(maxTokens) && maxTokens > 0)) return { updated: [] };
  if (record.maxTokens !== undefined && record.maxTokens <= maxTokens) return { updated: [] };
  record.maxTokens = maxTokens;
  return record.treeSpend > maxTokens
    ? { updated: [record], overBudget: { task: record, reason: tokenBudgetReason(record) } }
    : { updated: [record] };
}

/**
 * `addUsage` frozen, made as one object: every usage event of every task replaces its usage and each
 * ancestor's, and a sum then a frozen copy of it was two objects a time (B2's event path).
 */
export function frozenSum(a: Usage, b: Usage): Readonly<Usage> {
  const inputTokens = a.inputTokens + b.inputTokens;
  const outputTokens = a.outputTokens + b.outputTokens;
  const cachedInputTokens = (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0);
  return Object.freeze(cachedInputTokens > 0 ? { inputTokens, outputTokens, cachedInputTokens } : { inputTokens, outputTokens });
}

/** `addCost` frozen, made as one object (see `frozenSum`). */
export function frozenCostSum(a: Cost, b: Cost): Readonly<Cost> {
  return Object.freeze({ usd: a.usd + b.usd, unpricedTokens: a.unpricedTokens + b.unpricedTokens });
}

function tokenBudgetReason(node: TaskRecord): StopReason {
  return { kind: 'budget', detail: `task ${node.id} and its subtasks used ${node.treeSpend} tokens, over the budget of ${node.maxTokens}` };
}
