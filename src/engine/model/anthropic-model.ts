import type Anthropic from '@anthropic-ai/sdk';
import { secretValues } from '../secrets.js';
import { toAnthropicParams } from './anthropic-request.js';
import { AnthropicStreamReader } from './anthropic-stream.js';
import type { ProviderFailureContext } from './provider-failure-context.js';
import { LazySdk } from './lazy-sdk.js';
import { catchingSdkNotices, describeSdkNotice, type ProviderNoticeSink } from './provider-notices.js';
import { readProviderStream } from './provider-stream.js';
import { type ProviderRequestLimits, type ProviderRequestOptions, resolveRequestLimits, sdkClientOptions } from './request-limits.js';
import type { Model, ModelRequest, ModelStreamEvent } from './types.js';

/** The SDK's client and its error classes, once loaded. */
interface LoadedSdk {
  client: Anthropic;
  errorClasses: typeof Anthropic;
}

export const anthropicDefaultBaseUrl = 'https://api.anthropic.com';

/** Retries, timeouts and their clock are `ProviderRequestOptions` (request-limits.ts). */
export interface AnthropicModelOptions extends ProviderRequestOptions {
  /** e.g. `claude-sonnet-5-5`. */
  modelId: string;
  /** Sent as `x-api-key`. The SDK never reads the environment for it: pass it here. */
  apiKey: string;
  /** Default `https://api.anthropic.com`; set it for a proxy or an Anthropic-compatible server. */
  baseUrl?: string;
  /**
   * Other values to keep out of error messages besides `apiKey` (which always is): the other provider's
   * key, a proxy's token. Default: none.
   */
  secrets?: readonly string[];
  /** `max_tokens` when the request names none. Default 4096. */
  defaultMaxOutputTokens?: number;
  /** Where the SDK's notices (a deprecated model) go, in our words. Default: nowhere; the SDK never prints them. */
  onNotice?: ProviderNoticeSink;
}

/** A `Model` over the Messages API, streaming. */
export class AnthropicModel implements Model {
  readonly provider = 'anthropic';
  /** Every current Claude model reads images. */
  readonly acceptsImages = true;
  readonly modelId: string;
  private readonly options: AnthropicModelOptions;
  private readonly baseUrl: string;
  private readonly limits: ProviderRequestLimits;
  private readonly secrets: readonly string[];
  private readonly sdk: LazySdk<LoadedSdk>;
  /** Whether `baseUrl` is Anthropic's own API, decided once: a failure's message names it either way. */
  private readonly officialBaseUrl: boolean;

  constructor(options: AnthropicModelOptions) {
    this.options = options;
    this.modelId = options.modelId;
    this.limits = resolveRequestLimits(options);
    this.secrets = secretValues([options.apiKey, ...(options.secrets ?? [])]);
    this.baseUrl = options.baseUrl ?? anthropicDefaultBaseUrl;
    this.officialBaseUrl = this.baseUrl.replace(/\/+$/, '') === anthropicDefaultBaseUrl;
    this.sdk = new LazySdk(() =>
      import('@anthropic-ai/sdk').then(({ default: AnthropicSdk }) => ({
        client: new AnthropicSdk({
          apiKey: this.options.apiKey,
          ...sdkClientOptions(this.baseUrl, this.limits),
        }),
        errorClasses: AnthropicSdk,
      })),
    );
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const params = toAnthropicParams(request, this.modelId, this.options.defaultMaxOutputTokens ?? 4096);
    return this.sdk.stream(({ client, errorClasses }) =>
      readProviderStream(
        (attemptSignal) =>
          catchingSdkNotices(
            () => client.messages.create(params, { signal: attemptSignal }),
            (printed) => this.options.onNotice?.(describeSdkNotice(this.provider, printed)),
          ),
        () => new AnthropicStreamReader(),
        this.failureContext(request.signal, errorClasses),
        this.limits,
      ),
    );
  }

  private failureContext(signal: AbortSignal, errorClasses: typeof Anthropic): ProviderFailureContext {
    const baseUrl = this.baseUrl;
    return {
      provider: this.provider,
      displayName: 'Anthropic',
      baseUrl,
      officialBaseUrl: this.officialBaseUrl,
      apiKeyVariable: 'ANTHROPIC_API_KEY',
      modelId: this.modelId,
      maxRetries: this.limits.maxRetries,
      timeoutMs: this.limits.timeoutMs,
      errorClasses,
      signal,
      secrets: this.secrets,
    };
  }
}
