import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/engine/agent/tool.js';
import type { ModelMessage } from '../../src/engine/model/types.js';
import { createDeferred as deferred } from '../../src/engine/util/deferred.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { abortListenerCount, echoTool, hangingTool, prompt, run, system } from './support.js';

const { text, toolCall, usage } = ScriptedModel;
const userPrompt: ModelMessage = { role: 'user', content: [{ type: 'text', text: prompt }] };

describe('runAgent', () => {
  it('returns a plain answer after one turn, with its events, transcript and messages', async () => {
    const model = new ScriptedModel([[text('The answer '), text('is 42.')]]);
    const result = await run(model, { maxOutputTokens: 1000 });

    expect(result).toMatchObject({
      status: 'completed',
      output: 'The answer is 42.',
      turns: 1,
      usage: { inputTokens: 10, outputTokens: 5 },
    });
    expect(result.error).toBeUndefined();
    expect(result.messages).toEqual([userPrompt, { role: 'assistant', content: [{ type: 'text', text: 'The answer is 42.' }] }]);
    expect(result.transcript).toEqual([{ type: 'text', text: 'The answer is 42.' }]);
    expect(
      result.events.map((event) => (event.type === 'conversation' ? { type: 'conversation', length: event.messages.length } : event)),
    ).toEqual([
      // The conversation is announced where it is whole: before the request, after the answer, at the end.
      { type: 'conversation', length: 2 },
      { type: 'turn-start', turn: 1 },
      { type: 'text-delta', text: 'The answer ' },
      { type: 'text-delta', text: 'is 42.' },
      { type: 'transcript', entry: { type: 'text', text: 'The answer is 42.' } },
      { type: 'conversation', length: 2 },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 }, total: { inputTokens: 10, outputTokens: 5 } },
      { type: 'conversation', length: 2 },
    ]);
    expect(model.calls[0].request).toEqual({ system, messages: [userPrompt], tools: [], maxOutputTokens: 1000 });
  });

  it('runs a tool call and sends its result back in the next request', async () => {
    const model = new ScriptedModel([[text('Let me echo.'), toolCall('Echo', { text: 'hi', times: 2 }, 'call-1')], 'It said echo: hihi.']);
    const result = await run(model, { tools: [echoTool()] });

    expect(result).toMatchObject({ status: 'completed', output: 'It said echo: hihi.', turns: 2 });
    expect(model.calls[0].request.tools).toEqual([
      {
        name: 'Echo',
        description: 'Echoes its text.',
        inputSchema: expect.objectContaining({ type: 'object', required: ['text'] }) as unknown,
      },
    ]);
    expect(model.calls[1].request.messages).toEqual([
      userPrompt,
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me echo.' },
          { type: 'tool-call', toolCallId: 'call-1', toolName: 'Echo', input: { text: 'hi', times: 2 } },
        ],
      },
      { role: 'user', content: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'Echo', output: 'echo: hihi', isError: false }] },
    ]);
    expect(result.messages).toHaveLength(4);
    expect(result.transcript).toEqual([
      { type: 'text', text: 'Let me echo.' },
      { type: 'tool-call', toolCallId: 'call-1', toolName: 'Echo', input: { text: 'hi', times: 2 } },
      { type: 'tool-result', toolCallId: 'call-1', toolName: 'Echo', output: 'echo: hihi', isError: false },
      { type: 'text', text: 'It said echo: hihi.' },
    ]);
    expect(result.events.filter((event) => event.type === 'turn-start')).toEqual([
      { type: 'turn-start', turn: 1 },
      { type: 'turn-start', turn: 2 },
    ]);
  });

  it('runs two tool calls of one turn in parallel and answers them in call order', async () => {
    // "Wait" can only finish once "Open" has run: serial execution would never get there.
    const gate = deferred();
    const waitTool = defineTool({
      name: 'Wait',
      description: 'Waits for the gate.',
      inputSchema: z.object({}),
      readOnly: true,
      execute: async () => {
        await gate.promise;
        return 'gate passed';
      },
    });
    const openTool = defineTool({
      name: 'Open',
      description: 'Opens the gate.',
      inputSchema: z.object({}),
      readOnly: true,
      execute: async () => {
        gate.resolve();
        return 'gate opened';
      },
    });
    const model = new ScriptedModel([[toolCall('Wait', {}, 'first'), toolCall('Open', {}, 'second')], 'Both done.']);
    const result = await run(model, { tools: [waitTool, openTool] });

    expect(result.status).toBe('completed');
    expect(model.calls[1].request.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool-result', toolCallId: 'first', toolName: 'Wait', output: 'gate passed', isError: false },
        { type: 'tool-result', toolCallId: 'second', toolName: 'Open', output: 'gate opened', isError: false },
      ],
    });
    // The live transcript hears results as they finish.
    const resultIds = result.transcript.flatMap((entry) => (entry.type === 'tool-result' ? [entry.toolCallId] : []));
    expect(resultIds).toEqual(['second', 'first']);
  });

  it('sums usage over turns and reports each turn with the running total', async () => {
    const model = new ScriptedModel([
      [toolCall('Echo', { text: 'a' }), usage(100, 20)],
      [text('done'), usage(150, 25), usage(0, 5)],
    ]);
    const result = await run(model, { tools: [echoTool()] });

    expect(result.usage).toEqual({ inputTokens: 250, outputTokens: 50 });
    expect(result.events.filter((event) => event.type === 'usage')).toEqual([
      { type: 'usage', usage: { inputTokens: 100, outputTokens: 20 }, total: { inputTokens: 100, outputTokens: 20 } },
      { type: 'usage', usage: { inputTokens: 150, outputTokens: 30 }, total: { inputTokens: 250, outputTokens: 50 } },
    ]);
  });

  it('answers with the latest text when the last turn has none', async () => {
    const model = new ScriptedModel([[text('Summary: all good.'), toolCall('Echo', { text: 'bye' })], []]);
    const result = await run(model, { tools: [echoTool()] });
    expect(result).toMatchObject({ status: 'completed', output: 'Summary: all good.', turns: 2 });
    // An empty turn adds no empty assistant message, which providers would reject.
    expect(result.messages.at(-1)?.role).toBe('user');
  });

  it('continues a given conversation, merging consecutive user messages with tool results first', async () => {
    const conversation: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Read a.ts' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'old', toolName: 'Read', input: { file_path: 'a.ts' } }] },
      { role: 'user', content: [{ type: 'text', text: 'Also, hurry.' }] },
      { role: 'user', content: [{ type: 'tool-result', toolCallId: 'old', toolName: 'Read', output: 'contents' }] },
    ];
    const model = new ScriptedModel(['Done.']);
    const result = await run(model, { prompt: conversation });

    expect(model.calls[0].request.messages).toEqual([
      conversation[0],
      conversation[1],
      {
        role: 'user',
        content: [
          { type: 'tool-result', toolCallId: 'old', toolName: 'Read', output: 'contents' },
          { type: 'text', text: 'Also, hurry.' },
        ],
      },
    ]);
    expect(result.messages).toHaveLength(4);
    expect(conversation).toHaveLength(4);
  });

  it('fails without calling the model when the prompt is empty or two tools share a name', async () => {
    const model = new ScriptedModel([]);
    expect(await run(model, { prompt: '  ' })).toMatchObject({
      status: 'failed',
      error: 'The prompt is empty: give the agent a task to work on.',
      turns: 0,
    });
    expect(await run(model, { tools: [echoTool(), echoTool()] })).toMatchObject({
      status: 'failed',
      error: 'Two tools are named "Echo": tool names must be unique.',
    });
    expect(model.calls).toHaveLength(0);
  });

  it('removes every listener it adds to the run signal', async () => {
    const controller = new AbortController();
    const hang = hangingTool();
    const model = new ScriptedModel([[toolCall('Hang', {}), toolCall('Echo', { text: 'a' })], 'Done.']);
    const running = run(model, { tools: [hang.tool, echoTool()], signal: controller.signal });
    await hang.started;
    expect(abortListenerCount(controller.signal)).toBeGreaterThan(0);
    hang.finish('finished');
    expect(await running).toMatchObject({ status: 'completed', output: 'Done.' });
    expect(abortListenerCount(controller.signal)).toBe(0);
  });
});
