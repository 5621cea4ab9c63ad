import type Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModel } from '../../src/engine/model/anthropic-model.js';
import { type MockProviderServer, startMockProviderServer, textTurn } from '../support/mock-provider/index.js';
import { conversation, readTool } from './conversation-fixture.js';
import { collect, makeRequest } from './model-harness.js';

describe('Anthropic request mapping', () => {
  let server: MockProviderServer;
  let model: AnthropicModel;

  beforeEach(async () => {
    server = await startMockProviderServer();
    model = new AnthropicModel({ modelId: 'claude-test', apiKey: 'sk-ant-test', baseUrl: server.baseUrl });
  });

  afterEach(async () => {
    await server.close();
  });

  async function sentBody(request = makeRequest()): Promise<Anthropic.MessageCreateParamsStreaming> {
    server.enqueue(textTurn('ok'));
    await collect(model.stream(request));
    const recorded = server.requests.at(-1);
    expect(recorded?.path).toBe('/v1/messages');
    return recorded?.body as Anthropic.MessageCreateParamsStreaming;
  }

  it('sends prior tool calls as tool_use blocks and results as tool_result blocks, results first', async () => {
    const body = await sentBody(makeRequest({ messages: conversation, tools: [readTool] }));
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Fix the bug' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 'call_a', name: 'Read', input: { file_path: 'a.ts' } },
          { type: 'tool_use', id: 'call_b', name: 'Grep', input: { pattern: 'x' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_a', content: 'contents of a.ts' },
          { type: 'tool_result', tool_use_id: 'call_b', content: 'invalid regex', is_error: true },
          { type: 'text', text: 'Notice: background task t2 completed' },
        ],
      },
    ]);
  });

  it('sends the system prompt, the tools with input_schema, streaming, and the key header', async () => {
    const body = await sentBody(makeRequest({ tools: [readTool] }));
    expect(body).toMatchObject({ model: 'claude-test', system: 'You are a test.', stream: true, max_tokens: 4096 });
    expect(body.tools).toEqual([{ name: 'Read', description: 'Reads a file.', input_schema: readTool.inputSchema }]);
    expect(readTool.inputSchema).toMatchObject({ type: 'object', required: ['file_path'] });
    expect(server.requests[0].apiKey).toBe('sk-ant-test');
    expect(server.requests[0].headers['anthropic-version']).toBeTruthy();
  });

  it('uses the request output limit, and leaves out an empty system prompt and an empty tool list', async () => {
    const body = await sentBody(makeRequest({ system: '', maxOutputTokens: 1000 }));
    expect(body.max_tokens).toBe(1000);
    expect(body).not.toHaveProperty('system');
    expect(body).not.toHaveProperty('tools');
  });

  it('drops empty text and sends {} for a tool call whose input never parsed', async () => {
    const body = await sentBody(
      makeRequest({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Go' }] },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: '' },
              { type: 'tool-call', toolCallId: 'broken', toolName: 'Edit', input: undefined },
            ],
          },
          {
            role: 'user',
            content: [{ type: 'tool-result', toolCallId: 'broken', toolName: 'Edit', output: 'invalid input', isError: true }],
          },
        ],
      }),
    );
    expect(body.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'broken', name: 'Edit', input: {} }] });
  });
});
