/**
 * A provider whose error echoes the API key: the real SDKs over the mock provider, for both protocols.
 * The key must be absent from the error's message and from everything printed of it (cause chain
 * included), so no consumer (events, terminal, history, the next model request) can leak it.
 */
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/engine/errors.js';
import { type MockProviderServer, httpError, startMockProviderServer, streamError } from '../support/mock-provider/index.js';
import { collect, makeRequest, providerCases } from './model-harness.js';

const keys = {
  anthropic: 'sk-ant-api03-Qm7xR2vT9kLp4NwZ8cYb1HjD6fGs3AeU0oIi5MnBvCxZl-Kq9Wt2Ey7Ru4Ti1Op8As5Df3Gh6Jk0LzXc-VbNmQAA',
  openai: 'sk-proj-Jr4Tq9Lm2Xv7Bn5Kc8Zw1Yd6Fh3Gs0Ap-Eo9Iu2Ty5Re8Wq1Za4Sx7Dc0Fv3Gb6Hn9Jm2Kl5Po8IuT3BlbkFJx',
};

/** Everything a consumer could print or store of an error. */
function everythingPrinted(error: unknown): string {
  return [String(error), (error as Error).stack ?? '', inspect(error, { depth: null, showHidden: true }), JSON.stringify(error)].join('\n');
}

describe.each(providerCases)('$provider model: a key echoed by the provider', ({ provider, makeModel }) => {
  let server: MockProviderServer;
  const apiKey = keys[provider];

  beforeEach(async () => {
    server = await startMockProviderServer();
  });

  afterEach(async () => {
    await server.close();
  });

  it.each([401, 400, 500])('keeps the key out of the error for a %i whose body echoes it', async (status) => {
    server.respondWith((request) =>
      httpError(status, { message: `request with key ${request.apiKey ?? ''} refused (x-api-key: ${request.apiKey ?? ''})` }),
    );
    const error = await collect(makeModel(server, { apiKey, maxRetries: 1 }).stream(makeRequest())).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status });
    // The echo reached the engine: the mock received the key and put it in the body.
    expect(server.requests[0].apiKey).toBe(apiKey);
    expect((error as Error).message).toContain('request with key [redacted] refused (x-api-key: [redacted])');
    expect(everythingPrinted(error)).not.toContain(apiKey);
    expect(everythingPrinted(error)).not.toContain(apiKey.slice(20, 60));
  });

  it('keeps the key out of an error event inside the stream', async () => {
    server.enqueue(streamError({ text: ['Partial'] }, `overloaded while serving ${apiKey}`));
    const error = await collect(makeModel(server, { apiKey }).stream(makeRequest())).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'server' });
    expect((error as Error).message).toContain('overloaded while serving [redacted]');
    expect(everythingPrinted(error)).not.toContain(apiKey);
  });

  it('redacts a key-shaped value it was never told about', async () => {
    const otherKey = provider === 'anthropic' ? keys.openai : keys.anthropic;
    server.enqueue(httpError(403, { message: `key ${otherKey} belongs to another organization` }));
    const error = await collect(makeModel(server, { apiKey: 'local-proxy-key-1' }).stream(makeRequest())).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toContain('key [redacted] belongs to another organization');
    expect(everythingPrinted(error)).not.toContain(otherKey);
  });
});
