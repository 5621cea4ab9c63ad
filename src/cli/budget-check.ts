/**
 * `--budget-usd` with a model that has no price refuses to start (exit 2): every model the run may use is
 * checked, the run's, its `--fallback-model`s and those the roles name, since any of them may spend.
 */
import { type PriceTable, resolveModelOverride, type RoleDefinition, unpricedBudgetError, unpricedModels } from '../engine/index.js';

export interface BudgetModels {
  provider: string;
  /** The run's model id (the default already filled in). */
  model: string;
  fallbackModels: readonly string[];
  roles: readonly Pick<RoleDefinition, 'model' | 'fallbackModels' | 'a2aUrl'>[];
}

/** Throws the refusal when `budgetUsd` is given and a model the run may use has no price. */
export function checkBudgetPrices(budgetUsd: number | undefined, prices: PriceTable, run: BudgetModels): void {
  if (budgetUsd === undefined) return;
  const ids = [run.model, ...run.fallbackModels];
  // A remote (A2A) role runs elsewhere: its cost is not ours to count.
  for (const role of run.roles.filter((each) => each.a2aUrl === undefined)) {
    const override = resolveModelOverride(role.model, run.provider);
    if (override !== undefined) ids.push(override);
    ids.push(...(role.fallbackModels ?? []));
  }
  const missing = unpricedModels(
    (model) => prices.priceOf(model),
    ids.map((id) => `${run.provider}/${id}`),
  );
  if (missing.length > 0) throw unpricedBudgetError(missing, `--budget-usd ${budgetUsd}`, '--model-prices <file> (a JSON file)');
}
