/**
 * What the provider models (Anthropic's, OpenAI's) share about where they send a request and how a failure
 * is told: the options both take, the limits, the secrets kept out of messages, whether the base URL is the
 * provider's own API, and the failure context built from those. One place, so the two cannot tell a failure
 * differently.
 */
import { secretValues } from '../secrets.js';
import type { ProviderFailureContext, SdkErrorClasses } from './provider-failure-context.js';
import { type ProviderRequestLimits, type ProviderRequestOptions, resolveRequestLimits } from './request-limits.js';

/** The options every provider model takes; retries, timeouts and their clock are `ProviderRequestOptions`. */
export interface ProviderModelOptions extends ProviderRequestOptions {
  /** The model's id at the provider (or at the compatible server). */
  modelId: string;
  /** The provider's key; always kept out of error messages. */
  apiKey?: string;
  /** Default: the provider's own API; set it for a proxy or a compatible server. */
  baseUrl?: string;
  /**
   * Other values to keep out of error messages besides `apiKey` (which always is): the other provider's
   * key, a proxy's token. Default: none.
   */
  secrets?: readonly string[];
}

/** How a provider is named in failures. */
export interface ProviderNames {
  provider: string;
  /** Shown to the user: `Anthropic`, `OpenAI`. */
  displayName: string;
  /** The environment variable the key comes from, e.g. `ANTHROPIC_API_KEY`. */
  apiKeyVariable: string;
}

export class ProviderEndpoint {
  readonly limits: ProviderRequestLimits;
  readonly secrets: readonly string[];
  readonly baseUrl: string;
  /** Whether `baseUrl` is the provider's own API, decided once: a failure's message names it either way. */
  readonly officialBaseUrl: boolean;

  constructor(
    options: ProviderModelOptions,
    defaultBaseUrl: string,
    private readonly names: ProviderNames,
  ) {
    this.limits = resolveRequestLimits(options);
    this.secrets = secretValues([options.apiKey, ...(options.secrets ?? [])]);
    this.baseUrl = options.baseUrl ?? defaultBaseUrl;
    this.officialBaseUrl = this.baseUrl.replace(/\/+$/, '') === defaultBaseUrl;
  }

  failureContext(modelId: string, signal: AbortSignal, errorClasses: SdkErrorClasses): ProviderFailureContext {
    return {
      ...this.names,
      baseUrl: this.baseUrl,
      officialBaseUrl: this.officialBaseUrl,
      modelId,
      maxRetries: this.limits.maxRetries,
      timeoutMs: this.limits.timeoutMs,
      errorClasses,
      signal,
      secrets: this.secrets,
    };
  }
}
