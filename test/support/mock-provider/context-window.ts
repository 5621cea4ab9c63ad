/**
 * An enforced context window: the mock counts a request's tokens (four bytes of its JSON a token: the
 * system prompt, the messages and the tools, as a real tokenizer roughly would) and refuses a request past
 * the window with the provider's real context-length error, which the real SDKs parse as they would the
 * provider's:
 * - Anthropic: 400 `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long:
 *   N tokens > M maximum"},"request_id":"req_…"}`
 * - OpenAI (Chat Completions): 400 `{"error":{"message":"This model's maximum context length is M tokens.
 *   However, your messages resulted in N tokens. Please reduce the length of the messages.","type":
 *   "invalid_request_error","param":"messages","code":"context_length_exceeded"}}`
 * A turn scripted without `usage` reports the counted tokens as its input, as a provider would.
 */
import type { MockProtocol } from './recorded-request.js';

export const mockBytesPerToken = 4;

/** The tokens the mock counts for a request body. */
export function mockTokenCount(body: unknown): number {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const counted = JSON.stringify({ system: record.system ?? null, messages: record.messages ?? [], tools: record.tools ?? [] });
  return Math.ceil(Buffer.byteLength(counted, 'utf8') / mockBytesPerToken);
}

/** The provider's own error body for a request of `usedTokens` past a window of `windowTokens`. */
export function contextLengthErrorBody(protocol: MockProtocol, usedTokens: number, windowTokens: number, requestIndex: number): unknown {
  if (protocol === 'anthropic') {
    return {
      type: 'error',
      error: { type: 'invalid_request_error', message: `prompt is too long: ${usedTokens} tokens > ${windowTokens} maximum` },
      request_id: `req_mock_${requestIndex}`,
    };
  }
  return {
    error: {
      message: `This model's maximum context length is ${windowTokens} tokens. However, your messages resulted in ${usedTokens} tokens. Please reduce the length of the messages.`,
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  };
}
