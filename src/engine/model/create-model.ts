import type { Clock } from '../clock.js';
import { ConfigurationError } from '../errors.js';
import { AnthropicModel } from './anthropic-model.js';
import { OpenAIModel } from './openai-model.js';
import type { ProviderNoticeSink } from './provider-notices.js';
import type { Model } from './types.js';

export type ModelProvider = 'anthropic' | 'openai';

export const modelProviders: readonly ModelProvider[] = ['anthropic', 'openai'];

/**
 * The model used when the settings name none. (Not `claude-sonnet-4-5`: the installed Anthropic SDK marks it
 * deprecated and prints a warning to stderr on every request.)
 */
export const defaultModelIds: Readonly<Record<ModelProvider, string>> = {
  anthropic: 'claude-sonnet-5-5',
  openai: 'gpt-5-mini',
};

/** Where each provider's key comes from when the settings carry none. */
export const apiKeyVariables: Readonly<Record<ModelProvider, string>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
};

/** Where each provider's base URL comes from when the settings carry none (as the SDKs themselves do). */
export const baseUrlVariables: Readonly<Record<ModelProvider, string>> = {
  anthropic: 'ANTHROPIC_BASE_URL',
  openai: 'OPENAI_BASE_URL',
};

export interface ModelSettings {
  provider: ModelProvider;
  /** The model id; empty means the provider's default (`defaultModelIds`). */
  model: string;
  /** Default: the provider's environment variable (`apiKeyVariables`). */
  apiKey?: string;
  /** Default: the provider's base-URL variable, else its official API. Needed for local servers. */
  baseUrl?: string;
  /**
   * Retries on 429, 5xx, connection errors and timeouts, before any output. Default 2; 0 turns them off.
   * A `retry-after` of up to 60 s is waited for; a longer one fails the request at once, saying so.
   */
  maxRetries?: number;
  /** How long one attempt may wait for the response to start, in milliseconds. Default 600,000 (10 min). */
  timeoutMs?: number;
  /** How long a started response may send nothing before it counts as stalled. Default 300,000 ms (`defaults.modelIdleTimeoutMs`); 0: never. */
  idleTimeoutMs?: number;
}

export interface CreateModelOptions {
  /** Where keys and base URLs are looked up when the settings carry none. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Measures request timeouts and retry waits. Default `systemClock`. */
  clock?: Clock;
  /** The jitter of retry backoff, in [0, 1). Default `Math.random`. */
  random?: () => number;
  /** Where the provider SDK's notices (a deprecated model) go, in our words. Default: nowhere. */
  onNotice?: ProviderNoticeSink;
}

/**
 * Builds the model for the given settings. Throws `ConfigurationError` for settings that cannot work: an
 * unknown provider, a malformed base URL, or no API key for a provider's own API (a key is optional once a
 * base URL points at a compatible server, since local servers such as Ollama take none).
 */
export function createModel(settings: ModelSettings, options: CreateModelOptions = {}): Model {
  const environment = options.environment ?? process.env;
  const provider = settings.provider;
  if (!isModelProvider(provider)) {
    // VS Code's own models exist only inside VS Code, where the extension builds them itself.
    const where = String(provider) === 'vscode-lm' ? " (vscode-lm, VS Code's own models, works only inside VS Code)" : '';
    throw new ConfigurationError(`unknown provider "${String(provider)}"${where}: use ${modelProviders.join(' or ')}`);
  }
  const modelId = settings.model.trim() || defaultModelIds[provider];
  const baseUrl = nonEmpty(settings.baseUrl) ?? nonEmpty(environment[baseUrlVariables[provider]]);
  if (baseUrl !== undefined) checkBaseUrl(baseUrl);
  const apiKey = nonEmpty(settings.apiKey) ?? nonEmpty(environment[apiKeyVariables[provider]]);
  if (apiKey === undefined && baseUrl === undefined) throw missingApiKeyError(provider);
  checkCount('maxRetries', settings.maxRetries, 0);
  checkCount('timeoutMs', settings.timeoutMs, 1);
  checkCount('idleTimeoutMs', settings.idleTimeoutMs, 0);

  const common = {
    modelId,
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
    ...(settings.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: settings.idleTimeoutMs }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.random === undefined ? {} : { random: options.random }),
    // Every key the environment holds, not only this provider's: a proxy may echo either.
    secrets: modelProviders.map((each) => environment[apiKeyVariables[each]] ?? ''),
  };
  if (provider === 'anthropic') {
    // A proxy may take no key; the SDK needs some value to send all the same.
    return new AnthropicModel({
      ...common,
      apiKey: apiKey ?? 'no-key-needed',
      ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    });
  }
  return new OpenAIModel({ ...common, ...(apiKey === undefined ? {} : { apiKey }) });
}

/** `anthropic/claude-sonnet-5-5`: how a model is named in task snapshots, the CLI and the sidebar. */
export function describeModel(model: Pick<Model, 'provider' | 'modelId'>): string {
  return `${model.provider}/${model.modelId}`;
}

export function isModelProvider(value: unknown): value is ModelProvider {
  return typeof value === 'string' && (modelProviders as readonly string[]).includes(value);
}

function missingApiKeyError(provider: ModelProvider): ConfigurationError {
  const name = provider === 'anthropic' ? 'Anthropic' : 'OpenAI';
  const setKey = `set ${apiKeyVariables[provider]} (or, in VS Code, run "Agent Team: Set API Key")`;
  const localServers =
    provider === 'openai'
      ? '. For a local OpenAI-compatible server (Ollama, vLLM, LM Studio), give its address with --base-url (the agentTeam.baseUrl setting in VS Code) instead'
      : '';
  return new ConfigurationError(`no ${name} API key: ${setKey}${localServers}.`);
}

function checkBaseUrl(baseUrl: string): void {
  let protocol: string;
  try {
    protocol = new URL(baseUrl).protocol;
  } catch {
    throw new ConfigurationError(`the base URL "${baseUrl}" is not a URL; expected something like http://localhost:11434/v1`);
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new ConfigurationError(`the base URL "${baseUrl}" must start with http:// or https://`);
  }
}

function checkCount(name: string, value: number | undefined, minimum: number): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < minimum) {
    throw new ConfigurationError(`${name} must be a whole number of at least ${minimum}, got ${value}`);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
