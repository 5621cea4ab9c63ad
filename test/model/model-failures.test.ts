import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, StoppedError, type StopReason } from '../../src/engine/errors.js';
import {
  type MockProviderServer,
  delayed,
  hangingStream,
  httpError,
  rateLimited,
  serverError,
  startMockProviderServer,
  textTurn,
  unauthorized,
} from '../support/mock-provider/index.js';
import { collect, collectUntilError, makeRequest, providerCases } from './model-harness.js';

const apiKeyVariable = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' } as const;

describe.each(providerCases)('$provider model: failures', ({ provider, makeModel, baseUrlOf }) => {
  let server: MockProviderServer;

  beforeEach(async () => {
    server = await startMockProviderServer();
  });

  afterEach(async () => {
    await server.close();
  });

  it('gives up on repeated 500s after exactly maxRetries + 1 requests, with a server error', async () => {
    server.enqueue(serverError(), serverError(), serverError(), textTurn('never reached'));
    const error = await collect(makeModel(server, { maxRetries: 2 }).stream(makeRequest())).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'server', status: 500, provider });
    expect((error as Error).message).toMatch(/failed \(500, 3 attempts\): internal server error\. Try again later\.$/);
    expect(server.requests).toHaveLength(3);
  });

  it('reports rate limiting that outlasts the retries, and says to try later', async () => {
    server.enqueue(rateLimited(), rateLimited(), rateLimited());
    const error = await collect(makeModel(server, { maxRetries: 2 }).stream(makeRequest())).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderError', kind: 'rate-limit', status: 429, code: 'provider-rate-limit' });
    expect((error as Error).message).toMatch(/rate limited the request \(429, 3 attempts\): rate limit exceeded\. Try again later/);
    expect(server.requests).toHaveLength(3);
  });

  it('refuses a redirect rather than follow it with the key: one request, no retry, nothing reaches the target', async () => {
    const elsewhere = await startMockProviderServer();
    try {
      elsewhere.enqueue(textTurn('the key arrived here'));
      server.enqueue(
        httpError(308, { headers: { location: `${baseUrlOf(elsewhere)}/redirected?token=secret` } }),
        textTurn('never reached'),
      );
      const error = await collect(makeModel(server, { maxRetries: 2 }).stream(makeRequest())).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: 'ProviderError', kind: 'bad-request', code: 'provider-bad-request', provider });
      // Where it points, by origin only: a path or query may carry a token.
      expect((error as Error).message).toBe(
        `${baseUrlOf(server)} answered with a redirect, which Agent Team does not follow: it would send the API key on to wherever it points. Set the base URL to the address the server redirects to: it points to ${elsewhere.baseUrl}.`,
      );
      expect(server.requests).toHaveLength(1);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('honours maxRetries 0: one request only', async () => {
    server.enqueue(serverError(503), textTurn('never reached'));
    const error = await collect(makeModel(server, { maxRetries: 0 }).stream(makeRequest())).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'server', status: 503 });
    expect(server.requests).toHaveLength(1);
  });

  it('explains a rejected key (401) without retrying: the variable and the VS Code command', async () => {
    server.enqueue(unauthorized(), textTurn('never reached'));
    const error = await collect(makeModel(server).stream(makeRequest())).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderError', kind: 'auth', status: 401, code: 'provider-auth' });
    const message = (error as Error).message;
    expect(message).toContain('rejected the API key (401)');
    expect(message).toContain(apiKeyVariable[provider]);
    expect(message).toContain('"Agent Team: Set API Key"');
    expect(server.requests).toHaveLength(1);
  });

  it('treats 403 as an auth problem naming the model', async () => {
    server.enqueue(httpError(403));
    const error = await collect(makeModel(server).stream(makeRequest())).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'auth', status: 403 });
    expect((error as Error).message).toMatch(/refused access \(403\).*allowed to use model "(claude|gpt)-test"/);
  });

  it('explains a 404 as an unknown model or endpoint, quoting the provider', async () => {
    server.enqueue(httpError(404, { message: 'model: no-such-model' }));
    const error = await collect(makeModel(server).stream(makeRequest())).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'bad-request', status: 404 });
    expect((error as Error).message).toContain('(404): model: no-such-model');
    expect((error as Error).message).toContain(baseUrlOf(server));
  });

  it('says it cannot connect when nothing listens at the base URL', async () => {
    const closed = await startMockProviderServer();
    const address = baseUrlOf(closed);
    await closed.close();
    // Connection errors retry with the SDK's own backoff (0.5 s and up), so this test turns retries off.
    const model = makeModel(server, { baseUrl: address, maxRetries: 0 });
    const error = await collect(model.stream(makeRequest())).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderError', kind: 'connection', baseUrl: address });
    expect((error as Error).message).toMatch(
      new RegExp(`^cannot connect to ${escapeRegExp(address)} \\(is the server running\\? ECONNREFUSED\\)`),
    );
  });

  it('closes the HTTP request when aborted mid-stream and throws StoppedError with the reason', async () => {
    server.enqueue(hangingStream({ text: ['Working', ' on it'] }));
    const controller = new AbortController();
    const reason: StopReason = { kind: 'parent-stopped', parentId: 't1' };
    const seen: string[] = [];
    const run = (async () => {
      for await (const event of makeModel(server).stream(makeRequest({ signal: controller.signal }))) {
        if (event.type === 'text-delta') seen.push(event.text);
        if (seen.join('') === 'Working on it') controller.abort(reason);
      }
    })();
    const error = await run.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoppedError);
    expect((error as StoppedError).reason).toEqual(reason);
    await server.waitForClientClose(0);
    expect(server.closedRequests).toBe(1);
  });

  it('closes the HTTP request when aborted while waiting for the response to start', async () => {
    const release = new Promise<void>(() => {});
    server.enqueue(delayed(textTurn('too late'), release));
    const controller = new AbortController();
    const stream = collectUntilError(makeModel(server).stream(makeRequest({ signal: controller.signal })));
    await server.waitForRequest(0);
    controller.abort({ kind: 'budget', detail: 'out of tokens' } satisfies StopReason);
    const { events, error } = await stream;
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(StoppedError);
    expect((error as StoppedError).reason).toEqual({ kind: 'budget', detail: 'out of tokens' });
    await server.waitForClientClose(0);
    expect(server.closedRequests).toBe(1);
  });

  it('counts an abort without a typed reason as a user stop', async () => {
    server.enqueue(hangingStream());
    const controller = new AbortController();
    const { error } = await collectUntilError(
      (async function* () {
        for await (const event of makeModel(server).stream(makeRequest({ signal: controller.signal }))) {
          controller.abort();
          yield event;
        }
      })(),
    );
    expect(error).toBeInstanceOf(StoppedError);
    expect((error as StoppedError).reason).toEqual({ kind: 'user' });
  });

  it('sends nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort({ kind: 'shutdown' } satisfies StopReason);
    const error = await collect(makeModel(server).stream(makeRequest({ signal: controller.signal }))).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoppedError);
    expect((error as StoppedError).reason).toEqual({ kind: 'shutdown' });
    expect(server.requests).toHaveLength(0);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
