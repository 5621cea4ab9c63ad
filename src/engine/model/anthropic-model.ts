import type Anthropic from '@anthropic-ai/sdk';
import { toAnthropicParams } from './anthropic-request.js';
import { AnthropicStreamReader } from './anthropic-stream.js';
import type { ProviderFailureContext } from './provider-errors.js';
import { readProviderStream } from './provider-stream.js';
import type { Model, ModelRequest, ModelStreamEvent } from './types.js';

export const anthropicDefaultBaseUrl = 'https://api.anthropic.com';

export interface AnthropicModelOptions {
  /** e.g. `claude-sonnet-5-5`. */
  modelId: string;
  /** Sent as `x-api-key`. The SDK never reads the environment for it: pass it here. */
  apiKey: string;
  /** Default `https://api.anthropic.com`; set it for a proxy or an Anthropic-compatible server. */
  baseUrl?: string;
  /** Retries the SDK makes on 408, 409, 429, 5xx and connection errors. Default 2 (the SDK's own). */
  maxRetries?: number;
  /** Per-request timeout in milliseconds. Default: the SDK's (10 minutes). */
  timeoutMs?: number;
  /** `max_tokens` when the request names none. Default 4096. */
  defaultMaxOutputTokens?: number;
}

/** A `Model` over the Messages API, streaming. */
export class AnthropicModel implements Model {
  readonly provider = 'anthropic';
  readonly modelId: string;
  private readonly options: AnthropicModelOptions;
  private readonly baseUrl: string;
  private client?: Promise<{ client: Anthropic; errorClasses: typeof Anthropic }>;

  constructor(options: AnthropicModelOptions) {
    this.options = options;
    this.modelId = options.modelId;
    this.baseUrl = options.baseUrl ?? anthropicDefaultBaseUrl;
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const params = toAnthropicParams(request, this.modelId, this.options.defaultMaxOutputTokens ?? 4096);
    const { client, errorClasses } = await this.loadClient();
    yield* readProviderStream(
      () => client.messages.create(params, { signal: request.signal }),
      new AnthropicStreamReader(),
      this.failureContext(request.signal, errorClasses),
    );
  }

  /**
   * The SDK is loaded on the first request, not when the model is made: evaluating it costs more than the
   * rest of the extension's activation (B5 in docs/performance.md).
   */
  private loadClient(): Promise<{ client: Anthropic; errorClasses: typeof Anthropic }> {
    this.client ??= import('@anthropic-ai/sdk').then(({ default: AnthropicSdk }) => ({
      client: new AnthropicSdk({
        apiKey: this.options.apiKey,
        baseURL: this.baseUrl,
        maxRetries: this.options.maxRetries ?? 2,
        ...(this.options.timeoutMs === undefined ? {} : { timeout: this.options.timeoutMs }),
      }),
      errorClasses: AnthropicSdk,
    }));
    return this.client;
  }

  private failureContext(signal: AbortSignal, errorClasses: typeof Anthropic): ProviderFailureContext {
    const baseUrl = this.baseUrl;
    return {
      provider: this.provider,
      displayName: 'Anthropic',
      baseUrl,
      officialBaseUrl: baseUrl.replace(/\/+$/, '') === anthropicDefaultBaseUrl,
      apiKeyVariable: 'ANTHROPIC_API_KEY',
      modelId: this.modelId,
      maxRetries: this.options.maxRetries ?? 2,
      ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
      errorClasses,
      signal,
    };
  }
}
