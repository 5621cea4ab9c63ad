/** Real SDK models (`createModel`) pointed at the mock provider server, for benchmarks over HTTP. */
import { createModel, type ModelProvider } from '../../src/engine/model/create-model.js';
import type { Model } from '../../src/engine/model/types.js';
import type { RecordedRequest } from '../../test/support/mock-provider/index.js';

export const providers: readonly ModelProvider[] = ['openai', 'anthropic'];

/** The provider's real SDK client against the mock server, with SDK retries off (a retry would hide a bug). */
export function mockServerModel(server: { baseUrl: string; openaiBaseUrl: string }, provider: ModelProvider): Model {
  return createModel({
    provider,
    model: 'mock-model',
    apiKey: 'bench-key',
    baseUrl: provider === 'openai' ? server.openaiBaseUrl : server.baseUrl,
    maxRetries: 0,
  });
}

/** True when the request carries tool results: the agent's turn after a tool call. */
export function carriesToolResult(request: RecordedRequest): boolean {
  const messages = (request.body as { messages?: Array<{ role?: string; content?: unknown }> }).messages ?? [];
  return messages.some(
    (message) =>
      message.role === 'tool' ||
      (Array.isArray(message.content) && message.content.some((block: { type?: string }) => block?.type === 'tool_result')),
  );
}
