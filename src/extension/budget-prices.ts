/**
 * `agentTeam.budgetUsd` with a model that has no price refuses to start, as `--budget-usd` does in the
 * CLI: the run's model and every role's (the per-role settings, the role files' `model`) are checked,
 * since any of them may spend, and tokens without a price count nothing against the budget.
 */
import * as vscode from 'vscode';
import {
  defaultModelIds,
  type ModelPrice,
  resolveModelOverride,
  type RoleDefinition,
  unpricedBudgetError,
  unpricedModels,
} from '../engine/index.js';
import { vscodeLmProvider } from './language-model/language-model-errors.js';
import { modelIdFor, type ModelSetup } from './model-setup.js';

/** Throws the engine's `ConfigurationError` when `budgetUsd` is set (over 0) and a model of the run has no price. */
export function checkBudgetPrices(
  budgetUsd: number,
  setup: ModelSetup,
  roles: readonly RoleDefinition[],
  priceOf: (model: string) => ModelPrice | undefined,
): void {
  if (!(budgetUsd > 0)) return;
  const provider = setup.provider;
  const named = (id: string) =>
    `${provider}/${id || (provider === vscodeLmProvider ? (setup.chatModels[0]?.id ?? 'default') : defaultModelIds[provider])}`;
  const models = [named(setup.model)];
  // A remote (A2A) role runs elsewhere: its cost is not ours to count.
  for (const role of roles.filter((each) => each.a2aUrl === undefined)) {
    models.push(named(modelIdFor(setup, role.name, resolveModelOverride(role.model, provider))));
  }
  const missing = unpricedModels(priceOf, models);
  if (missing.length > 0)
    throw unpricedBudgetError(
      missing,
      `agentTeam.budgetUsd (${budgetUsd})`,
      vscode.l10n.t('the agentTeam.modelPrices setting (in your user settings)'),
    );
}
