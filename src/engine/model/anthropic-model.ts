import Anthropic from '@anthropic-ai/sdk';
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
  private readonly client: Anthropic;
  private readonly options: AnthropicModelOptions;

  constructor(options: AnthropicModelOptions) {
    this.options = options;
    this.modelId = options.modelId;
    this.client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseUrl ?? anthropicDefaultBaseUrl,
      maxRetries: options.maxRetries ?? 2,
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    });
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const params = toAnthropicParams(request, this.modelId, this.options.defaultMaxOutputTokens ?? 4096);
    return readProviderStream(
      () => this.client.messages.create(params, { signal: request.signal }),
      new AnthropicStreamReader(),
      this.failureContext(request.signal),
    );
  }

  private failureContext(signal: AbortSignal): ProviderFailureContext {
    const baseUrl = this.client.baseURL;
    return {
      provider: this.provider,
      displayName: 'Anthropic',
      baseUrl,
      officialBaseUrl: baseUrl.replace(/\/+$/, '') === anthropicDefaultBaseUrl,
      apiKeyVariable: 'ANTHROPIC_API_KEY',
      modelId: this.modelId,
      maxRetries: this.client.maxRetries,
      ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
      errorClasses: Anthropic,
      signal,
    };
  }
}
