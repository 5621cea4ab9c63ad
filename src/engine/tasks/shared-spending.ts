/**
 * What an ended task's spending shares (task-record.ts `letGoOfWork`): its usage and cost are frozen values
 * that no longer change once it has ended, so equal ones can be one object.
 */
import type { Cost } from '../model/cost-schema.js';
import type { Usage } from '../model/types.js';
import type { UsageByModel } from './usage-by-model.js';

/** What of a task record (task-record.ts) its spending is: named here so that the record's file imports this one, not the reverse. */
export interface Spending {
  usage: Readonly<Usage>;
  treeUsage: Readonly<Usage>;
  cost: Readonly<Cost>;
  treeCost: Readonly<Cost>;
  usageByModel?: UsageByModel;
}

/**
 * An ended task's spending no longer changes: where two of its frozen values are equal (a task without
 * subtasks spent what its tree did; a task on one model spent on it what it spent in all), one object
 * serves both. Four objects fewer for most tasks of a long history (B6), the same values in every snapshot.
 */
export function shareEqualSpending(record: Spending): void {
  if (record.treeUsage !== record.usage && sameValues(record.treeUsage, record.usage)) record.treeUsage = record.usage;
  if (record.treeCost !== record.cost && sameValues(record.treeCost, record.cost)) record.treeCost = record.cost;
  const only = record.usageByModel?.length === 1 ? record.usageByModel[0] : undefined;
  if (
    only &&
    (only.usage !== record.usage || only.cost !== record.cost) &&
    sameValues(only.usage, record.usage) &&
    sameValues(only.cost, record.cost)
  )
    record.usageByModel = Object.freeze([Object.freeze({ model: only.model, usage: record.usage, cost: record.cost })]) as UsageByModel;
}

/** True when `a` and `b` have the same own keys with the same values (usage and cost hold numbers only). */
function sameValues(a: object, b: object): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key]);
}
