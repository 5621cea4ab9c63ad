/**
 * What model usage costs in money: the list prices of `model-prices.json` (one data file, dated), over
 * which the user's own prices win (`agentTeam.modelPrices`, `--model-prices`). A model with no price is
 * "unknown", never free: its tokens are counted apart, so a total says when it is only a lower bound.
 */
import * as z from 'zod';
import table from './model-prices.json';
import type { Usage } from './types.js';

/** US dollars per million tokens. `cachedInput`: input read from the prompt cache (default: `input`). */
export interface ModelPrice {
  input: number;
  output: number;
  cachedInput?: number;
}

const dollars = z.number().finite().nonnegative();
const modelPriceSchema = z.object({ input: dollars, output: dollars, cachedInput: dollars.optional() }).strict();

/** The date of the list prices, for the docs and the notes that show them. */
export const listPricesAsOf: string = table.asOf;

/**
 * The list, in its order. `tierEstimate`: the model is newer than the last price check and carries its
 * tier's price (Sonnet, Opus, Haiku) until checked, so a default model is never "unknown".
 */
export function listPrices(): { model: string; price: ModelPrice; tierEstimate: boolean }[] {
  const estimates = new Set<string>(table.tierEstimates);
  return Object.entries(table.prices as Record<string, ModelPrice>).map(([model, price]) => ({
    model,
    price,
    tierEstimate: estimates.has(model),
  }));
}

/** The user's prices, by `provider/model`: each entry checked, a bad one named and left out. */
export function parseModelPrices(value: unknown, source: string): { prices: Record<string, ModelPrice>; problems: string[] } {
  const prices: Record<string, ModelPrice> = {};
  const problems: string[] = [];
  if (value === undefined || value === null) return { prices, problems };
  if (typeof value !== 'object' || Array.isArray(value))
    return {
      prices,
      problems: [`${source}: not an object of "provider/model": { input, output, cachedInput } (US dollars per million tokens)`],
    };
  for (const [model, price] of Object.entries(value)) {
    const parsed = modelPriceSchema.safeParse(price);
    if (!model.includes('/')) problems.push(`${source}: "${model}" is not "provider/model" (e.g. "openai/gpt-5"); ignored`);
    else if (!parsed.success)
      problems.push(
        `${source}: the price of "${model}" needs input and output (and may have cachedInput), each a number of dollars per million tokens; ignored`,
      );
    else prices[model] = parsed.data;
  }
  return { prices, problems };
}

export class PriceTable {
  private readonly known: ReadonlyMap<string, ModelPrice>;

  /** `overrides`: the user's prices, which win over the list. */
  constructor(overrides: Readonly<Record<string, ModelPrice>> = {}) {
    this.known = new Map([...Object.entries(table.prices as Record<string, ModelPrice>), ...Object.entries(overrides)]);
  }

  /**
   * The price of `provider/model`: its own entry, else the longest entry it is a dated or tagged version of
   * (`claude-sonnet-4-5-20250929` is `claude-sonnet-4-5`; `gpt-5-mini` is never `gpt-5`'s).
   */
  priceOf(model: string | undefined): ModelPrice | undefined {
    if (model === undefined) return undefined;
    const exact = this.known.get(model);
    if (exact) return exact;
    let best: string | undefined;
    for (const key of this.known.keys()) {
      if (model.startsWith(`${key}-`) && /^-\d/.test(model.slice(key.length)) && (best === undefined || key.length > best.length))
        best = key;
    }
    return best === undefined ? undefined : this.known.get(best);
  }
}

/** Dollars for `usage` at `price`. */
export function costOf(usage: Usage, price: ModelPrice): number {
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  return (
    ((usage.inputTokens - cached) * price.input + cached * (price.cachedInput ?? price.input) + usage.outputTokens * price.output) /
    1_000_000
  );
}
