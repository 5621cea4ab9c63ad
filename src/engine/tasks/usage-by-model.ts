/**
 * A task's usage and cost by model: a task that failed over (model-failover) ran on more than one, each
 * at its own price, and the user sees what each cost. Defined once for the snapshot, the sidebar protocol
 * and the task history, as usage is.
 */
import * as z from 'zod';
import { addCost, costSchemas, type Cost } from '../model/cost-schema.js';
import { addUsage, type Usage } from '../model/types.js';
import { usageSchemas } from '../model/usage-schema.js';
import { defineVariants } from '../util/schema-variants.js';

export const usageByModelSchemas = defineVariants((variant) =>
  z.array(
    variant.object({
      /** `provider/modelId`, as the snapshot's `model`. */
      model: z.string(),
      usage: usageSchemas[variant.name],
      cost: costSchemas[variant.name],
    }),
  ),
);

export type UsageByModel = z.infer<typeof usageByModelSchemas.strict>;

/** The name usage is counted under when the work never said which model did it. */
const unknownModel = 'unknown';

/**
 * `list` with `usage` and `cost` added to `model`'s entry (a new entry at the end for a model not yet in
 * it). A new frozen list: snapshots share the old one.
 */
export function addModelUsage(list: UsageByModel | undefined, model: string | undefined, usage: Usage, cost: Cost): UsageByModel {
  const name = model ?? unknownModel;
  const entries = list ?? [];
  const index = entries.findIndex((entry) => entry.model === name);
  const updated =
    index < 0
      ? { model: name, usage, cost }
      : { model: name, usage: addUsage(entries[index]!.usage, usage), cost: addCost(entries[index]!.cost, cost) };
  const next = index < 0 ? [...entries, updated] : entries.map((entry, at) => (at === index ? updated : entry));
  // Frozen, as the snapshot's other values are: listeners must not be able to change history.
  return Object.freeze(next.map((entry) => Object.freeze(entry))) as UsageByModel;
}
