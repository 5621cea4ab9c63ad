import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/engine/errors.js';
import type { ModelMessage } from '../../src/engine/model/types.js';
import { type MockProviderServer, startMockProviderServer, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { collect, makeRequest, providerCases, textOf } from './model-harness.js';

const [anthropicCase, openAICase] = providerCases;

describe('mock provider server', () => {
  let server: MockProviderServer;

  beforeEach(async () => {
    server = await startMockProviderServer();
  });

  afterEach(async () => {
    await server.close();
  });

  it('routes concurrent requests of both protocols through a responder, by system prompt', async () => {
    server.respondWith((request) => textTurn(`${request.protocol} answers ${request.system}`));
    const anthropic = anthropicCase.makeModel(server);
    const openai = openAICase.makeModel(server);
    const answers = await Promise.all([
      collect(anthropic.stream(makeRequest({ system: 'reviewer' }))),
      collect(openai.stream(makeRequest({ system: 'researcher' }))),
      collect(anthropic.stream(makeRequest({ system: 'coordinator' }))),
    ]);
    expect(answers.map(textOf)).toEqual(['anthropic answers reviewer', 'openai answers researcher', 'anthropic answers coordinator']);
    expect(server.requests).toHaveLength(3);
  });

  it('uses queued responses before the responder, and a queued function sees the request', async () => {
    server.enqueue((request) => textTurn(`tools: ${request.toolNames.join(',')}; last: ${request.lastMessageText}`));
    server.respondWith(() => textTurn('fallback'));
    const model = openAICase.makeModel(server);
    const tools = [{ name: 'Read', description: 'r', inputSchema: { type: 'object' } }];
    expect(textOf(await collect(model.stream(makeRequest({ tools }))))).toBe('tools: Read; last: Hello');
    expect(server.pendingResponses).toBe(0);
    expect(textOf(await collect(model.stream(makeRequest())))).toBe('fallback');
  });

  it('answers an unscripted request with a 400 that names it', async () => {
    const error = await collect(anthropicCase.makeModel(server).stream(makeRequest())).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain('no response queued for request #0 (POST /v1/messages)');
  });

  it.each(providerCases)('rejects a $provider conversation with an unanswered tool call, as the real API does', async ({ makeModel }) => {
    server.enqueue(textTurn('never sent'));
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Go' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'orphan', toolName: 'Read', input: {} }] },
      { role: 'user', content: [{ type: 'text', text: 'and?' }] },
    ];
    const error = await collect(makeModel(server).stream(makeRequest({ messages }))).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'bad-request', status: 400 });
    expect((error as Error).message).toMatch(/orphan/);
    expect(server.pendingResponses).toBe(1);
  });

  it('requires the configured key when given one', async () => {
    const guarded = await startMockProviderServer({ apiKey: 'right-key' });
    try {
      guarded.enqueue(textTurn('welcome'));
      const wrong = await collect(openAICase.makeModel(guarded, { apiKey: 'wrong-key' }).stream(makeRequest())).catch(
        (caught: unknown) => caught,
      );
      expect(wrong).toMatchObject({ kind: 'auth', status: 401 });
      const right = await collect(anthropicCase.makeModel(guarded, { apiKey: 'right-key' }).stream(makeRequest()));
      expect(textOf(right)).toBe('welcome');
    } finally {
      await guarded.close();
    }
  });

  it('sends the OpenAI usage chunk only when the request asks for it, and ends with [DONE]', async () => {
    server.enqueue(toolCallTurn([{ id: 'c1', name: 'Read', input: { file_path: 'a' } }]));
    const response = await fetch(`${server.openaiBaseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await response.text();
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(text).not.toContain('"usage"');
    expect(text).toContain('"finish_reason":"tool_calls"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});
