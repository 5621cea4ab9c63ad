import type Anthropic from '@anthropic-ai/sdk';
import { toAnthropicParams } from './anthropic-request.js';
import { AnthropicStreamReader } from './anthropic-stream.js';
import { LazySdk } from './lazy-sdk.js';
import { catchingSdkNotices, describeSdkNotice, type ProviderNoticeSink } from './provider-notices.js';
import { readProviderStream } from './provider-stream.js';
import { ProviderEndpoint, type ProviderModelOptions } from './provider-endpoint.js';
import { sdkClientOptions } from './request-limits.js';
import type { Model, ModelRequest, ModelStreamEvent } from './types.js';

/** The SDK's client and its error classes, once loaded. */
interface LoadedSdk {
  client: Anthropic;
  errorClasses: typeof Anthropic;
}

export const anthropicDefaultBaseUrl = 'https://api.anthropic.com';

/** Retries, timeouts and their clock are `ProviderRequestOptions` (request-limits.ts); `secrets` as `ProviderModelOptions`. */
export interface AnthropicModelOptions extends ProviderModelOptions {
  /** e.g. `claude-sonnet-5-5`. */
  modelId: string;
  /** Sent as `x-api-key`. The SDK never reads the environment for it: pass it here. */
  apiKey: string;
  /** Default `https://api.anthropic.com`; set it for a proxy or an Anthropic-compatible server. */
  baseUrl?: string;
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
  private readonly endpoint: ProviderEndpoint;
  private readonly sdk: LazySdk<LoadedSdk>;

  constructor(options: AnthropicModelOptions) {
    this.options = options;
    this.modelId = options.modelId;
    this.endpoint = new ProviderEndpoint(options, anthropicDefaultBaseUrl, {
      provider: this.provider,
      displayName: 'Anthropic',
      apiKeyVariable: 'ANTHROPIC_API_KEY',
    });
    this.sdk = new LazySdk(() =>
      import('@anthropic-ai/sdk').then(({ default: AnthropicSdk }) => ({
        client: new AnthropicSdk({
          apiKey: this.options.apiKey,
          ...sdkClientOptions(this.endpoint.baseUrl, this.endpoint.limits),
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
        this.endpoint.failureContext(this.modelId, request.signal, errorClasses),
        this.endpoint.limits,
      ),
    );
  }
}
