import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type MockProviderServer,
  droppedStream,
  rateLimited,
  startMockProviderServer,
  streamError,
  textTurn,
  toolCallTurn,
} from '../support/mock-provider/index.js';
import { collect, collectUntilError, makeRequest, providerCases, textOf } from './model-harness.js';

describe.each(providerCases)('$provider model: streaming a turn', ({ provider, makeModel }) => {
  let server: MockProviderServer;

  beforeEach(async () => {
    server = await startMockProviderServer();
  });

  afterEach(async () => {
    await server.close();
  });

  it('streams plain text as deltas, then usage and the end-turn finish', async () => {
    server.enqueue(textTurn('Hel', 'lo', ' world'));
    const events = await collect(makeModel(server).stream(makeRequest()));
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'text-delta', text: ' world' },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } },
      { type: 'finish', stopReason: 'end-turn' },
    ]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].protocol).toBe(provider);
  });

  it('assembles a tool call whose input arrives over several deltas', async () => {
    const input = { file_path: 'src/app.ts', offset: 10, limit: 20 };
    server.enqueue(toolCallTurn([{ id: 'call-1', name: 'Read', input, inputChunks: 4 }], 'Let me read it.'));
    const events = await collect(makeModel(server).stream(makeRequest()));
    expect(textOf(events)).toBe('Let me read it.');
    const toolCalls = events.filter((event) => event.type === 'tool-call');
    expect(toolCalls).toEqual([{ type: 'tool-call', toolCallId: 'call-1', toolName: 'Read', input, rawInput: JSON.stringify(input) }]);
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'tool-use' });
  });

  it('reports two tool calls of one turn in order, each with its own id and input', async () => {
    server.enqueue(
      toolCallTurn([
        { id: 'first', name: 'Glob', input: { pattern: '**/*.ts' } },
        { id: 'second', name: 'Grep', input: { pattern: 'TODO', glob: '*.md' } },
      ]),
    );
    const events = await collect(makeModel(server).stream(makeRequest()));
    const toolCalls = events.flatMap((event) => (event.type === 'tool-call' ? [[event.toolCallId, event.toolName, event.input]] : []));
    expect(toolCalls).toEqual([
      ['first', 'Glob', { pattern: '**/*.ts' }],
      ['second', 'Grep', { pattern: 'TODO', glob: '*.md' }],
    ]);
  });

  it('reports the usage numbers the provider sent', async () => {
    server.enqueue({ type: 'turn', text: 'ok', usage: { inputTokens: 1234, outputTokens: 56 } });
    const events = await collect(makeModel(server).stream(makeRequest()));
    expect(events.filter((event) => event.type === 'usage')).toEqual([{ type: 'usage', usage: { inputTokens: 1234, outputTokens: 56 } }]);
  });

  it('maps a max-tokens stop', async () => {
    server.enqueue({ type: 'turn', text: 'cut sh', stopReason: 'max-tokens' });
    const events = await collect(makeModel(server).stream(makeRequest()));
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'max-tokens' });
  });

  it('gives a tool call with invalid JSON input an inputError and the raw text, without failing the turn', async () => {
    server.enqueue(toolCallTurn([{ id: 'bad', name: 'Edit', rawInput: '{"file_path": "a.ts", "old_string": ' }]));
    const events = await collect(makeModel(server).stream(makeRequest()));
    const toolCall = events.find((event) => event.type === 'tool-call');
    expect(toolCall).toMatchObject({
      toolCallId: 'bad',
      toolName: 'Edit',
      input: undefined,
      rawInput: '{"file_path": "a.ts", "old_string": ',
    });
    expect(toolCall && 'inputError' in toolCall ? toolCall.inputError : undefined).toMatch(/not valid JSON/);
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'tool-use' });
  });

  it('reads an empty tool input as {}', async () => {
    server.enqueue(toolCallTurn([{ id: 'empty', name: 'TaskList', rawInput: '' }]));
    const events = await collect(makeModel(server).stream(makeRequest()));
    expect(events.find((event) => event.type === 'tool-call')).toEqual({
      type: 'tool-call',
      toolCallId: 'empty',
      toolName: 'TaskList',
      input: {},
      rawInput: '',
    });
  });

  it('retries a 429 through the SDK and succeeds on the second request', async () => {
    server.enqueue(rateLimited(), textTurn('after the wait'));
    const events = await collect(makeModel(server).stream(makeRequest()));
    expect(textOf(events)).toBe('after the wait');
    expect(server.requests).toHaveLength(2);
  });

  it('fails with a stream error when the connection drops mid-response, keeping the text already streamed', async () => {
    server.enqueue(droppedStream({ text: ['Partial ', 'answ'] }));
    const { events, error } = await collectUntilError(makeModel(server).stream(makeRequest()));
    expect(textOf(events)).toBe('Partial answ');
    expect(error).toMatchObject({ name: 'ProviderError', kind: 'stream', provider });
    expect((error as Error).message).toMatch(/^the stream from .+ ended before the response was complete/);
    // A cut stream is not retried: the partial answer was already delivered.
    expect(server.requests).toHaveLength(1);
  });

  it('fails with a stream error when the response ends cleanly but too early', async () => {
    server.enqueue(droppedStream({ text: ['Half'], toolCalls: [{ name: 'Read', input: { file_path: 'a' } }] }, 'end'));
    const { events, error } = await collectUntilError(makeModel(server).stream(makeRequest()));
    expect(textOf(events)).toBe('Half');
    expect(events.some((event) => event.type === 'tool-call')).toBe(false);
    expect(error).toMatchObject({ name: 'ProviderError', kind: 'stream' });
    expect((error as Error).message).toContain('ended before the response was complete');
  });

  it('reports an error event inside the stream as the provider failing mid-response', async () => {
    server.enqueue(streamError({ text: ['So far'] }, 'Overloaded'));
    const { events, error } = await collectUntilError(makeModel(server).stream(makeRequest()));
    expect(textOf(events)).toBe('So far');
    expect(error).toMatchObject({ name: 'ProviderError', kind: 'server', provider });
    expect((error as Error).message).toMatch(/reported an error during the response: Overloaded; try again$/);
  });
});
