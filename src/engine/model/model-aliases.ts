/**
 * Claude Code's model aliases in role files (`model: haiku`, `sonnet`, `opus`): Anthropic's current model
 * of that family when the run is on Anthropic; on any other provider the family means nothing, so the
 * role takes the run's own model (as `inherit` does) instead of sending an id the provider does not know.
 */
import { defaultModelIds } from './create-model.js';

export const claudeModelAliases: Readonly<Record<string, string>> = {
  haiku: 'claude-haiku-4-5',
  sonnet: defaultModelIds.anthropic,
  opus: 'claude-opus-4-5',
};

/** The model id a role's `model` field asks for on `provider`: undefined for the run's own model. */
export function resolveModelOverride(override: string | undefined, provider: string): string | undefined {
  if (override === undefined) return undefined;
  const alias = claudeModelAliases[override.toLowerCase()];
  if (alias === undefined) return override;
  return provider === 'anthropic' ? alias : undefined;
}
