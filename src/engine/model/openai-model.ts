import type OpenAI from 'openai';
import { type MaxTokensParameter, toOpenAIParams } from './openai-request.js';
import { OpenAIStreamReader } from './openai-stream.js';
import { LazySdk } from './lazy-sdk.js';
import { readProviderStream } from './provider-stream.js';
import { ProviderEndpoint, type ProviderModelOptions } from './provider-endpoint.js';
import { sdkClientOptions } from './request-limits.js';
import type { Model, ModelRequest, ModelStreamEvent } from './types.js';

/** The SDK's client and its error classes, once loaded. */
interface LoadedSdk {
  client: OpenAI;
  errorClasses: typeof OpenAI;
}

export const openAIDefaultBaseUrl = 'https://api.openai.com/v1';

/** Sent when a local server needs no key: the SDK refuses to start without one. */
export const placeholderApiKey = 'no-key-needed';

/** Retries, timeouts and their clock are `ProviderRequestOptions` (request-limits.ts); `secrets` as `ProviderModelOptions`. */
export interface OpenAIModelOptions extends ProviderModelOptions {
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
  private readonly endpoint: ProviderEndpoint;
  private readonly sdk: LazySdk<LoadedSdk>;
  private readonly maxTokensParameter: MaxTokensParameter;

  constructor(options: OpenAIModelOptions) {
    this.options = options;
    this.modelId = options.modelId;
    this.acceptsImages = acceptsImages(options.modelId);
    this.endpoint = new ProviderEndpoint(options, openAIDefaultBaseUrl, {
      provider: this.provider,
      displayName: 'OpenAI',
      apiKeyVariable: 'OPENAI_API_KEY',
    });
    this.maxTokensParameter = options.maxTokensParameter ?? (this.endpoint.officialBaseUrl ? 'max_completion_tokens' : 'max_tokens');
    this.sdk = new LazySdk(() =>
      import('openai').then(({ default: OpenAISdk }) => ({
        client: new OpenAISdk({
          apiKey: this.options.apiKey || placeholderApiKey,
          ...sdkClientOptions(this.endpoint.baseUrl, this.endpoint.limits),
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
        this.endpoint.failureContext(this.modelId, request.signal, errorClasses),
        this.endpoint.limits,
      ),
    );
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
