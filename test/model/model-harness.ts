import { AnthropicModel } from '../../src/engine/model/anthropic-model.js';
import { OpenAIModel } from '../../src/engine/model/openai-model.js';
import type { ProviderRequestOptions } from '../../src/engine/model/request-limits.js';
import type { Model, ModelRequest, ModelStreamEvent } from '../../src/engine/model/types.js';
import type { MockProviderServer } from '../support/mock-provider/index.js';

/** What a test may vary about the model under test: retries, timeouts, their clock, the key. */
export interface HarnessModelOptions extends ProviderRequestOptions {
  apiKey?: string;
  /** Default: the mock server's address for the provider. */
  baseUrl?: string;
}

export interface ProviderCase {
  provider: 'anthropic' | 'openai';
  /** The real adapter, pointed at the mock server. */
  makeModel(server: MockProviderServer, options?: HarnessModelOptions): Model;
  /** The address the adapter's messages should name. */
  baseUrlOf(server: MockProviderServer): string;
}

export const providerCases: ProviderCase[] = [
  {
    provider: 'anthropic',
    makeModel: (server, options = {}) =>
      new AnthropicModel({
        ...options,
        modelId: 'claude-test',
        apiKey: options.apiKey ?? 'test-key',
        baseUrl: options.baseUrl ?? server.baseUrl,
      }),
    baseUrlOf: (server) => server.baseUrl,
  },
  {
    provider: 'openai',
    makeModel: (server, options = {}) =>
      new OpenAIModel({
        ...options,
        modelId: 'gpt-test',
        apiKey: options.apiKey ?? 'test-key',
        baseUrl: options.baseUrl ?? server.openaiBaseUrl,
      }),
    baseUrlOf: (server) => server.openaiBaseUrl,
  },
];

/** A one-message request; override any field. */
export function makeRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are a test.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
    tools: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Reads a whole stream; rejects with whatever the stream threw. */
export async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** Reads a stream until it throws, and returns the events before the error along with the error. */
export async function collectUntilError(stream: AsyncIterable<ModelStreamEvent>): Promise<{ events: ModelStreamEvent[]; error: unknown }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { events, error };
  }
  throw new Error(`expected the stream to fail, but it ended after ${events.length} events`);
}

export function textOf(events: ModelStreamEvent[]): string {
  return events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
}
