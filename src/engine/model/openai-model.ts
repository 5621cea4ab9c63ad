import type OpenAI from 'openai';
import { secretValues } from '../secrets.js';
import { type MaxTokensParameter, toOpenAIParams } from './openai-request.js';
import { OpenAIStreamReader } from './openai-stream.js';
import type { ProviderFailureContext } from './provider-failure-context.js';
import { LazySdk } from './lazy-sdk.js';
import { readProviderStream } from './provider-stream.js';
import { type ProviderRequestLimits, type ProviderRequestOptions, resolveRequestLimits, sdkClientOptions } from './request-limits.js';
import type { Model, ModelRequest, ModelStreamEvent } from './types.js';

/** The SDK's client and its error classes, once loaded. */
interface LoadedSdk {
  client: OpenAI;
  errorClasses: typeof OpenAI;
}

export const openAIDefaultBaseUrl = 'https://api.openai.com/v1';

/** Sent when a local server needs no key: the SDK refuses to start without one. */
export const placeholderApiKey = 'no-key-needed';

/** Retries, timeouts and their clock are `ProviderRequestOptions` (request-limits.ts). */
export interface OpenAIModelOptions extends ProviderRequestOptions {
  /** e.g. `gpt-5-mini`, or whatever id a compatible server knows (`llama3.1:8b` for Ollama). */
  modelId: string;
  /** Sent as a bearer token. Default: a placeholder, for local servers that need no key. */
  apiKey?: string;
  /**
   * Default `https://api.openai.com/v1`. Any OpenAI-compatible server works: Ollama
   * (`http://localhost:11434/v1`), vLLM, LM Studio (`http://localhost:1234/v1`), OpenRouter.
   */
  baseUrl?: string;
  /**
   * Other values to keep out of error messages besides `apiKey` (which always is): the other provider's
   * key, a proxy's token. Default: none.
   */
  secrets?: readonly string[];
  /**
   * The output limit when the request names none. Default: none, the server decides. (Reasoning models
   * count hidden reasoning against this limit, so a small fixed default would cut answers short.)
   */
  defaultMaxOutputTokens?: number;
  /**
   * Which field carries the output limit. Default `max_completion_tokens` for api.openai.com (its newer
   * models reject `max_tokens`) and `max_tokens` for other servers (not all know the newer field).
   */
  maxTokensParameter?: MaxTokensParameter;
}

/** A `Model` over Chat Completions, streaming; serves OpenAI and every OpenAI-compatible server. */
export class OpenAIModel implements Model {
  readonly provider = 'openai';
  readonly modelId: string;
  readonly acceptsImages: boolean;
  private readonly options: OpenAIModelOptions;
  private readonly baseUrl: string;
  private readonly limits: ProviderRequestLimits;
  private readonly secrets: readonly string[];
  private readonly sdk: LazySdk<LoadedSdk>;
  private readonly maxTokensParameter: MaxTokensParameter;
  /** Whether `baseUrl` is OpenAI's own API, decided once: a failure's message names it either way. */
  private readonly officialBaseUrl: boolean;

  constructor(options: OpenAIModelOptions) {
    this.options = options;
    this.modelId = options.modelId;
    this.acceptsImages = acceptsImages(options.modelId);
    this.limits = resolveRequestLimits(options);
    this.secrets = secretValues([options.apiKey, ...(options.secrets ?? [])]);
    this.baseUrl = options.baseUrl ?? openAIDefaultBaseUrl;
    this.officialBaseUrl = this.baseUrl.replace(/\/+$/, '') === openAIDefaultBaseUrl;
    this.maxTokensParameter = options.maxTokensParameter ?? (this.officialBaseUrl ? 'max_completion_tokens' : 'max_tokens');
    this.sdk = new LazySdk(() =>
      import('openai').then(({ default: OpenAISdk }) => ({
        client: new OpenAISdk({
          apiKey: this.options.apiKey || placeholderApiKey,
          ...sdkClientOptions(this.baseUrl, this.limits),
        }),
        errorClasses: OpenAISdk,
      })),
    );
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const params = toOpenAIParams(request, this.modelId, {
      ...(this.options.defaultMaxOutputTokens === undefined ? {} : { defaultMaxOutputTokens: this.options.defaultMaxOutputTokens }),
      maxTokensParameter: this.maxTokensParameter,
    });
    return this.sdk.stream(({ client, errorClasses }) =>
      readProviderStream(
        (attemptSignal) => client.chat.completions.create(params, { signal: attemptSignal }),
        () => new OpenAIStreamReader(),
        this.failureContext(request.signal, errorClasses),
        this.limits,
      ),
    );
  }

  private failureContext(signal: AbortSignal, errorClasses: typeof OpenAI): ProviderFailureContext {
    return {
      provider: this.provider,
      displayName: 'OpenAI',
      baseUrl: this.baseUrl,
      officialBaseUrl: this.officialBaseUrl,
      apiKeyVariable: 'OPENAI_API_KEY',
      modelId: this.modelId,
      maxRetries: this.limits.maxRetries,
      timeoutMs: this.limits.timeoutMs,
      errorClasses,
      signal,
      secrets: this.secrets,
    };
  }
}

/**
 * Whether a model behind Chat Completions reads images, by its name: OpenAI's vision models (not o1-mini
 * or o3-mini) and the open ones compatible servers host. An unknown name is told of the image in words
 * rather than sent one it may reject.
 */
export function acceptsImages(modelId: string): boolean {
  const name = modelId.toLowerCase().split('/').at(-1) ?? '';
  return (
    /^(?:gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-4-turbo|gpt-4-vision|gpt-5|o1(?!-mini)|o3(?!-mini)|o4)/.test(name) ||
    /vision|llava|pixtral|qwen[\w.-]*-vl|gemma-?3|llama-?4|minicpm-v/.test(name)
  );
}
