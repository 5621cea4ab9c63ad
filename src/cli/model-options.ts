/** The options that choose the model: `--provider`, `--model`, `--base-url`. */
import type { ProviderName } from './argument-types.js';
import { UsageError } from './usage-error.js';
import { maxFallbackModels } from '../engine/index.js';

/** `--provider`, `--model` and `--base-url`, checked. */
export function checkedModelOptions(values: ReadonlyMap<string, string>): { provider?: ProviderName; model?: string; baseUrl?: string } {
  const provider = values.get('--provider');
  if (provider !== undefined && provider !== 'anthropic' && provider !== 'openai') {
    const where =
      provider === 'vscode-lm'
        ? " (vscode-lm, VS Code's own models, works only inside VS Code: use the extension's @team or its commands)"
        : '';
    throw new UsageError(`--provider must be anthropic or openai, not "${provider}"${where}`);
  }
  const baseUrl = values.get('--base-url');
  if (baseUrl !== undefined && !isHttpUrl(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL, not "${baseUrl}"`);
  return { provider, model: values.get('--model'), baseUrl };
}

/**
 * `--fallback-model` (repeatable): the models a task goes on with, in order, when its model is down
 * (model failover), each once; ids of the run's provider. At most `maxFallbackModels`.
 */
export function fallbackModelsOption(values: readonly string[] | undefined): string[] {
  const models = [...new Set(values ?? [])];
  const unusable = models.find((model) => /[\s\p{Cc}]/u.test(model) || model.length > 200);
  if (unusable !== undefined) throw new UsageError(`--fallback-model needs a model id, not "${unusable.slice(0, 60)}"`);
  if (models.length > maxFallbackModels)
    throw new UsageError(`--fallback-model: at most ${maxFallbackModels} models (each waits out its retries before the next is tried)`);
  return models;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
