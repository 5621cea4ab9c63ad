import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { truncateToolOutput, utf8ByteLength } from '../../src/engine/agent/result-limits.js';
import {
  defaultMaxConversationToolResultBytes,
  defaultMaxToolCallsPerTurn,
  defaultMaxToolResultBytes,
} from '../../src/engine/agent/run-agent.js';
import { defineTool, type Tool } from '../../src/engine/agent/tool.js';
import type { ModelMessage, ToolResultPart } from '../../src/engine/model/types.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { echoTool, run } from './support.js';

const { toolCall } = ScriptedModel;

/** A tool that returns `output(input.size)`, counting its runs. */
function sizedTool(output: (size: number) => string): Tool & { runs: number } {
  const tool = defineTool({
    name: 'Dump',
    description: 'Returns a lot of text.',
    inputSchema: z.object({ size: z.number().int() }),
    readOnly: true,
    execute: async ({ size }) => {
      counted.runs++;
      return output(size);
    },
  });
  const counted = Object.assign(tool, { runs: 0 });
  return counted;
}

function toolResults(message: ModelMessage | undefined): ToolResultPart[] {
  if (message?.role !== 'user') return [];
  return message.content.filter((part): part is ToolResultPart => part.type === 'tool-result');
}

function allToolResults(messages: readonly ModelMessage[]): ToolResultPart[] {
  return messages.flatMap((message) => toolResults(message));
}

describe('agent limits: tool calls per turn', () => {
  it('runs the first 16 calls of a turn and answers each call past the limit with an error naming it', async () => {
    expect(defaultMaxToolCallsPerTurn).toBe(16);
    const calls = Array.from({ length: 18 }, (_, index) => toolCall('Echo', { text: `n${index + 1}` }, `call-${index + 1}`));
    const model = new ScriptedModel([calls, 'Done.']);
    const result = await run(model, { tools: [echoTool()] });

    expect(result).toMatchObject({ status: 'completed', output: 'Done.', turns: 2 });
    const answered = toolResults(model.calls[1].request.messages.at(-1));
    // Exactly one result per call, in call order.
    expect(answered.map((part) => part.toolCallId)).toEqual(calls.map((_, index) => `call-${index + 1}`));
    expect(answered.slice(0, 16).every((part) => !part.isError && part.output.startsWith('echo: n'))).toBe(true);
    for (const [offset, part] of answered.slice(16).entries()) {
      expect(part.isError).toBe(true);
      expect(part.output).toBe(
        `Tool "Echo" was not run: this was call ${17 + offset} of the turn, and a turn may make at most 16 tool calls. Make the calls that are still needed in your next turn.`,
      );
    }
    expect(result.transcript.filter((entry) => entry.type === 'tool-result')).toHaveLength(18);
  });

  it('takes its own limit, and 0 means none', async () => {
    const dump = sizedTool(() => 'ok');
    const three = [1, 2, 3].map((size) => toolCall('Dump', { size }));
    const limited = new ScriptedModel([three, 'Done.']);
    await run(limited, { tools: [dump], maxToolCallsPerTurn: 2 });
    expect(dump.runs).toBe(2);
    expect(toolResults(limited.calls[1].request.messages.at(-1)).map((part) => part.isError)).toEqual([false, false, true]);

    const unlimited = new ScriptedModel([Array.from({ length: 20 }, () => toolCall('Dump', { size: 1 })), 'Done.']);
    dump.runs = 0;
    await run(unlimited, { tools: [dump], maxToolCallsPerTurn: 0 });
    expect(dump.runs).toBe(20);
  });
});

describe('agent limits: bytes of one tool result', () => {
  it('cuts a result over 64 KiB where it enters, with a note, in the conversation and the transcript alike', async () => {
    expect(defaultMaxToolResultBytes).toBe(65_536);
    // Multi-byte characters: the limit counts UTF-8 bytes, not characters.
    const dump = sizedTool((size) => 'é'.repeat(size));
    const model = new ScriptedModel([[toolCall('Dump', { size: 100_000 }, 'big')], 'Done.']);
    const result = await run(model, { tools: [dump] });

    const [sent] = toolResults(model.calls[1].request.messages.at(-1));
    expect(utf8ByteLength(sent.output)).toBeLessThanOrEqual(65_536);
    expect(sent.output).toMatch(
      /\n\n\[Agent Team: output truncated to its first \d+ of 200000 bytes \(a tool result keeps at most 65536 bytes\)\. Ask for less/,
    );
    expect(sent.output.startsWith('é'.repeat(30_000))).toBe(true);
    expect(sent.isError).toBe(false);
    const recorded = result.transcript.find((entry) => entry.type === 'tool-result');
    expect(recorded).toMatchObject({ output: sent.output });
  });

  it('leaves results within the limit untouched and never splits a character', () => {
    expect(truncateToolOutput('short', 100)).toBe('short');
    const emoji = '😀'.repeat(1000); // 4 bytes each, two UTF-16 units
    const cut = truncateToolOutput(emoji, 1000);
    expect(utf8ByteLength(cut)).toBeLessThanOrEqual(1000);
    const kept = cut.slice(0, cut.indexOf('\n\n['));
    expect(kept).toBe('😀'.repeat(kept.length / 2));
    expect(utf8ByteLength('a é 😀')).toBe(Buffer.byteLength('a é 😀'));
    expect(truncateToolOutput('x'.repeat(10_000), 0)).toHaveLength(10_000);
  });
});

describe('agent limits: tool output kept in the conversation', () => {
  it('replaces the oldest results with a note once all of them pass the limit', async () => {
    expect(defaultMaxConversationToolResultBytes).toBe(1_048_576);
    const dump = sizedTool((size) => 'x'.repeat(size));
    const turns = [1, 2, 3, 4].map((turn) => [toolCall('Dump', { size: 1000 }, `turn-${turn}`)]);
    const model = new ScriptedModel([...turns, 'Done.']);
    const result = await run(model, { tools: [dump], maxConversationToolResultBytes: 2500 });

    expect(result.status).toBe('completed');
    // The fourth turn's request still had all results within the limit (3 × 1000 bytes > 2500: one elided).
    const fourthRequest = allToolResults(model.calls[3].request.messages);
    expect(fourthRequest.map((part) => part.output.length === 1000)).toEqual([false, true, true]);
    expect(fourthRequest[0].output).toBe(
      "[Agent Team: this Dump result (1000 bytes) was removed to keep the conversation's tool output under 2500 bytes. Call the tool again if you still need it.]",
    );
    const last = allToolResults(model.calls[4].request.messages);
    expect(last.map((part) => part.toolCallId)).toEqual(['turn-1', 'turn-2', 'turn-3', 'turn-4']);
    expect(last.map((part) => part.output.length === 1000)).toEqual([false, false, true, true]);
    const total = last.reduce((sum, part) => sum + utf8ByteLength(part.output), 0);
    expect(total).toBeLessThanOrEqual(2500);
    // The user's record keeps what each tool returned.
    expect(
      result.transcript.filter((entry) => entry.type === 'tool-result').every((entry) => 'output' in entry && entry.output.length === 1000),
    ).toBe(true);
  });

  it("applies the limit to a continued conversation before its first request, without changing the caller's messages", async () => {
    const big = 'y'.repeat(2000);
    const conversation: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Start' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'old', toolName: 'Dump', input: { size: 2000 } }] },
      { role: 'user', content: [{ type: 'tool-result', toolCallId: 'old', toolName: 'Dump', output: big }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Read it.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
    ];
    const model = new ScriptedModel(['Continued.']);
    await run(model, { prompt: conversation, maxConversationToolResultBytes: 1000 });
    const [sent] = allToolResults(model.calls[0].request.messages);
    expect(sent.output).toMatch(/^\[Agent Team: this Dump result \(2000 bytes\) was removed/);
    expect(toolResults(conversation[2])[0].output).toBe(big);
  });
});
