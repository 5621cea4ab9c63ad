/**
 * Context-length refusals through the real SDKs: the mock provider's enforced window answers with each
 * provider's real error body, and the adapters turn it into a `ContextLengthError` with the sizes the
 * provider named (not retried: a 400). Other 400s stay ordinary provider errors.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContextLengthError, contextLengthOf } from '../../src/engine/model/context-length-error.js';
import { ProviderError } from '../../src/engine/errors.js';
import { httpError, type MockProviderServer, startMockProviderServer, textTurn } from '../support/mock-provider/index.js';
import { collect, collectUntilError, makeRequest, providerCases } from './model-harness.js';

let server: MockProviderServer;
beforeEach(async () => {
  server = await startMockProviderServer({ contextWindowTokens: 1000 });
});
afterEach(async () => {
  await server.close();
});

describe.each(providerCases)('a request past the window ($provider)', ({ makeModel }) => {
  it('is a ContextLengthError naming the request size and the window, sent once', async () => {
    const long = 'word '.repeat(2000);
    const { error } = await collectUntilError(
      makeModel(server, { maxRetries: 2 }).stream(makeRequest({ messages: [{ role: 'user', content: [{ type: 'text', text: long }] }] })),
    );
    expect(error).toBeInstanceOf(ContextLengthError);
    const refusal = error as ContextLengthError;
    expect(refusal.windowTokens).toBe(1000);
    expect(refusal.usedTokens).toBeGreaterThan(1000);
    expect(refusal.message).toContain('no longer fits the context window');
    expect(server.requests).toHaveLength(1);
  });

  it('is not one for another 400', async () => {
    server.enforceContextWindow(undefined);
    server.enqueue(httpError(400, { message: 'messages: text content blocks must be non-empty' }));
    const { error } = await collectUntilError(makeModel(server).stream(makeRequest()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).not.toBeInstanceOf(ContextLengthError);
  });

  it('fits below the window, and reports the counted input', async () => {
    server.enqueue(textTurn('ok'));
    const events = await collect(makeModel(server).stream(makeRequest()));
    const usage = events.find((event) => event.type === 'usage');
    expect(usage).toMatchObject({ usage: { inputTokens: expect.any(Number) } });
    expect((usage as { usage: { inputTokens: number } }).usage.inputTokens).toBeGreaterThan(10);
  });
});

describe('contextLengthOf', () => {
  it("reads both providers' messages and codes, with thousands separators", () => {
    expect(contextLengthOf(400, 'prompt is too long: 209353 tokens > 199999 maximum', {})).toEqual({
      usedTokens: 209353,
      windowTokens: 199999,
    });
    expect(
      contextLengthOf(400, "This model's maximum context length is 128,000 tokens. However, your messages resulted in 130,017 tokens.", {
        error: { code: 'context_length_exceeded' },
      }),
    ).toEqual({ windowTokens: 128000, usedTokens: 130017 });
    expect(contextLengthOf(400, 'Input tokens exceed the configured limit of 272000 tokens.', { code: 'context_length_exceeded' })).toEqual(
      { windowTokens: 272000 },
    );
    expect(contextLengthOf(413, 'Request exceeds the maximum size', { type: 'error', error: { type: 'request_too_large' } })).toEqual({});
    expect(contextLengthOf(400, 'max_tokens: 10000 > 4096, which is the maximum allowed', {})).toBeUndefined();
    expect(contextLengthOf(429, 'prompt is too long: 5 tokens > 4 maximum', {})).toBeUndefined();
  });
});
