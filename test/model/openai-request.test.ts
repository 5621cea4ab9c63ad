import type OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIModel, type OpenAIModelOptions } from '../../src/engine/model/openai-model.js';
import { type MockProviderServer, startMockProviderServer, textTurn } from '../support/mock-provider/index.js';
import { conversation, readTool } from './conversation-fixture.js';
import { collect, makeRequest } from './model-harness.js';

describe('OpenAI request mapping', () => {
  let server: MockProviderServer;

  beforeEach(async () => {
    server = await startMockProviderServer();
  });

  afterEach(async () => {
    await server.close();
  });

  async function sentBody(
    request = makeRequest(),
    options: Partial<OpenAIModelOptions> = {},
  ): Promise<OpenAI.Chat.ChatCompletionCreateParamsStreaming> {
    const model = new OpenAIModel({ modelId: 'gpt-test', apiKey: 'sk-test', baseUrl: server.openaiBaseUrl, ...options });
    server.enqueue(textTurn('ok'));
    await collect(model.stream(request));
    const recorded = server.requests.at(-1);
    expect(recorded?.path).toBe('/v1/chat/completions');
    return recorded?.body as OpenAI.Chat.ChatCompletionCreateParamsStreaming;
  }

  it('sends the system message, tool_calls, one tool message per result (errors marked), then the user text', async () => {
    const body = await sentBody(makeRequest({ messages: conversation, tools: [readTool] }));
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'Fix the bug' },
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'Read', arguments: '{"file_path":"a.ts"}' } },
          { id: 'call_b', type: 'function', function: { name: 'Grep', arguments: '{"pattern":"x"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'contents of a.ts' },
      { role: 'tool', tool_call_id: 'call_b', content: 'Error: invalid regex' },
      { role: 'user', content: 'Notice: background task t2 completed' },
    ]);
  });

  it('streams with usage included, sends tools as functions, and the key as a bearer token', async () => {
    const body = await sentBody(makeRequest({ tools: [readTool] }));
    expect(body).toMatchObject({ model: 'gpt-test', stream: true, stream_options: { include_usage: true } });
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'Read', description: 'Reads a file.', parameters: readTool.inputSchema } },
    ]);
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-test');
    expect(server.requests[0].apiKey).toBe('sk-test');
  });

  it('leaves the output limit to a compatible server unless asked, then sends max_tokens', async () => {
    const unlimited = await sentBody(makeRequest());
    expect(unlimited).not.toHaveProperty('max_tokens');
    expect(unlimited).not.toHaveProperty('max_completion_tokens');
    expect(unlimited).not.toHaveProperty('tools');
    const limited = await sentBody(makeRequest({ maxOutputTokens: 1000 }));
    expect(limited.max_tokens).toBe(1000);
    expect(limited).not.toHaveProperty('max_completion_tokens');
  });

  it('sends max_completion_tokens when told to (the default for api.openai.com)', async () => {
    const body = await sentBody(makeRequest(), { maxTokensParameter: 'max_completion_tokens', defaultMaxOutputTokens: 2048 });
    expect(body.max_completion_tokens).toBe(2048);
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('serves a base URL without /v1 (the path /chat/completions)', async () => {
    const model = new OpenAIModel({ modelId: 'local', baseUrl: server.baseUrl });
    server.enqueue(textTurn('hi'));
    await collect(model.stream(makeRequest({ system: '' })));
    expect(server.requests[0].path).toBe('/chat/completions');
    expect((server.requests[0].body as OpenAI.Chat.ChatCompletionCreateParams).messages).toEqual([{ role: 'user', content: 'Hello' }]);
    // No key given: the SDK still needs one, so a placeholder goes out.
    expect(server.requests[0].headers.authorization).toBe('Bearer no-key-needed');
  });
});
