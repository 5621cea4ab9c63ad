/**
 * A budget in money counts only tokens that have a price: a run on a model with no price would spend
 * without the budget ever seeing it. So a dollar budget over an unpriced model refuses to start, naming
 * the models and the way to price them, rather than a budget that silently never stops anything.
 */
import { ConfigurationError } from '../errors.js';
import type { ModelPrice } from './model-prices.js';

/** Each of `models` (`provider/model`) with no price, once, in the order given. */
export function unpricedModels(priceOf: (model: string) => ModelPrice | undefined, models: Iterable<string>): string[] {
  return [...new Set(models)].filter((model) => priceOf(model) === undefined);
}

/**
 * The refusal for a budget over unpriced models. `budget`: how the user gave it (`--budget-usd`,
 * `agentTeam.budgetUsd`); `howToAddPrice`: where prices go in that door (`--model-prices <file>`, the
 * `agentTeam.modelPrices` setting).
 */
export function unpricedBudgetError(models: readonly string[], budget: string, howToAddPrice: string): ConfigurationError {
  const example = JSON.stringify(Object.fromEntries(models.map((model) => [model, { input: 3, output: 15 }])));
  const named = models.length === 1 ? `${models[0]} has no price` : `${models.join(', ')} have no price`;
  return new ConfigurationError(
    `${budget} cannot be kept: ${named}, so its tokens would count nothing against the budget. Add the price (US dollars per million tokens of input and output, from the provider's price page) with ${howToAddPrice}, e.g. ${example}, or run without ${budget}.`,
  );
}
