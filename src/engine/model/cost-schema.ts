/** Money spent, defined once for the engine, the sidebar protocol and the task history (as usage is). */
import * as z from 'zod';
import { defineVariants } from '../util/schema-variants.js';

export const costSchemas = defineVariants((variant) =>
  variant.object({
    /** US dollars, for the tokens whose model has a price. */
    usd: z.number().finite().nonnegative(),
    /** Tokens of models with no known price: when not 0, `usd` is only a lower bound. */
    unpricedTokens: z.number().int().nonnegative(),
  }),
);

export type Cost = z.infer<typeof costSchemas.strict>;

export const zeroCost: Cost = Object.freeze({ usd: 0, unpricedTokens: 0 });

export function addCost(a: Cost, b: Cost): Cost {
  return { usd: a.usd + b.usd, unpricedTokens: a.unpricedTokens + b.unpricedTokens };
}

/** "$0.042", "$1.20"; "unknown" when nothing had a price; "≥ $0.30 (some models unpriced)" when part had none. */
export function formatCost(cost: Cost): string {
  if (cost.usd === 0 && cost.unpricedTokens > 0) return 'unknown';
  const amount =
    cost.usd < 0.01 && cost.usd > 0 ? `$${cost.usd.toFixed(4)}` : cost.usd < 1 ? `$${cost.usd.toFixed(3)}` : `$${cost.usd.toFixed(2)}`;
  return cost.unpricedTokens > 0 ? `≥ ${amount} (some models unpriced)` : amount;
}
