import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type Tool } from '../../src/engine/agent/tool.js';
import type { AgentRunResult } from '../../src/engine/agent/types.js';
import { StoppedError } from '../../src/engine/errors.js';
import type { ModelMessage } from '../../src/engine/model/types.js';
import { flushMicrotasks, ManualClock } from '../../src/engine/testing/manual-clock.js';
import { ScriptedModel, type ScriptedEvent } from '../../src/engine/testing/scripted-model.js';
import { echoTool, hangingTool, run } from './support.js';

const { toolCall } = ScriptedModel;

function failingTool(): Tool {
  return defineTool({
    name: 'Fail',
    description: 'Always fails.',
    inputSchema: z.object({}),
    readOnly: true,
    execute: () => Promise.reject(new Error('disk is full')),
  });
}

/** The one tool result the second request carries, after the model made `call` in the first turn. */
async function resultAfter(call: ScriptedEvent, tools: Tool[]): Promise<{ message: ModelMessage | undefined; result: AgentRunResult }> {
  const model = new ScriptedModel([[call], 'Recovered.']);
  const result = await run(model, { tools });
  // The run went on to completion after the error result.
  expect(result).toMatchObject({ status: 'completed', output: 'Recovered.', turns: 2 });
  return { message: model.calls[1].request.messages.at(-1), result };
}

function errorResult(toolName: string, output: string): ModelMessage {
  return { role: 'user', content: [{ type: 'tool-result', toolCallId: 'call-1', toolName, output, isError: true }] };
}

describe('tool errors the model can act on', () => {
  it('answers input that is not valid JSON, recording the call with {} and the raw text in the transcript', async () => {
    const call: ScriptedEvent = {
      type: 'tool-call',
      toolCallId: 'call-1',
      toolName: 'Echo',
      input: undefined,
      rawInput: '{"text": ',
      inputError: 'the tool input is not valid JSON (Unexpected end of JSON input)',
    };
    const { message, result } = await resultAfter(call, [echoTool()]);

    expect(message).toEqual(
      errorResult(
        'Echo',
        'Tool "Echo" was not run: the tool input is not valid JSON (Unexpected end of JSON input). Call it again with a JSON object as input.',
      ),
    );
    expect(result.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'Echo', input: {} }],
    });
    expect(result.transcript[0]).toEqual({ type: 'tool-call', toolCallId: 'call-1', toolName: 'Echo', input: '{"text": ' });
  });

  it('answers input that fails the schema with each wrong field, without running the tool', async () => {
    let executed = false;
    const editTool = defineTool({
      name: 'Edit',
      description: 'Edits.',
      inputSchema: z.object({ file_path: z.string(), edits: z.array(z.object({ old_string: z.string() })) }),
      readOnly: false,
      execute: async () => {
        executed = true;
        return 'edited';
      },
    });
    const { message } = await resultAfter(toolCall('Edit', { path: 'a.ts', edits: [{ old_string: 5 }] }, 'call-1'), [editTool]);

    expect(message).toEqual(
      errorResult(
        'Edit',
        [
          'Tool "Edit" was not run: its input does not match the schema.',
          '- file_path: Invalid input: expected string, received undefined',
          '- edits[0].old_string: Invalid input: expected string, received number',
          'Fix these fields and call it again.',
        ].join('\n'),
      ),
    );
    expect(executed).toBe(false);
  });

  it('answers an unknown tool name with the available names', async () => {
    const { message } = await resultAfter(toolCall('Ecko', { text: 'hi' }, 'call-1'), [echoTool(), failingTool()]);
    expect(message).toEqual(errorResult('Ecko', 'Unknown tool "Ecko". Available tools: Echo, Fail.'));
  });

  it('says so when an agent without tools calls one', async () => {
    const { message } = await resultAfter(toolCall('Read', {}, 'call-1'), []);
    expect(message).toEqual(errorResult('Read', 'Unknown tool "Read". This agent has no tools.'));
  });

  it('answers a tool that throws with its message', async () => {
    const { message } = await resultAfter(toolCall('Fail', {}, 'call-1'), [failingTool()]);
    expect(message).toEqual(errorResult('Fail', 'Tool "Fail" failed: disk is full'));
  });

  it('answers a tool past the default timeout, aborting its signal at the timeout, measured on the injected clock', async () => {
    const clock = new ManualClock();
    const hang = hangingTool();
    const model = new ScriptedModel([[toolCall('Hang', {}, 'call-1')], 'Recovered.']);
    let settled = false;
    const running = run(model, { tools: [hang.tool], clock }).finally(() => (settled = true));

    await hang.started;
    await clock.advance(119_999);
    expect(settled).toBe(false);
    expect(hang.contexts[0].signal.aborted).toBe(false);
    await clock.advance(1);
    const result = await running;

    expect(result).toMatchObject({ status: 'completed', output: 'Recovered.' });
    expect(model.calls[1].request.messages.at(-1)).toEqual(errorResult('Hang', 'Tool "Hang" timed out after 120000 ms and was stopped.'));
    const reason: unknown = hang.contexts[0].signal.reason;
    expect(reason).toBeInstanceOf(StoppedError);
    expect((reason as StoppedError).reason).toEqual({ kind: 'budget', detail: 'the Hang call passed its timeout of 120000 ms' });
  });

  it("uses the tool's own timeout over the run's, and cancels the timer of a call that finishes", async () => {
    const clock = new ManualClock();
    const hang = hangingTool('Hang', 5_000);
    const model = new ScriptedModel([[toolCall('Hang', {}, 'call-1'), toolCall('Echo', { text: 'x' }, 'call-2')], 'Recovered.']);
    const running = run(model, { tools: [hang.tool, echoTool()], clock, toolTimeoutMs: 60_000 });

    await hang.started;
    await flushMicrotasks();
    // Echo finished at once; only Hang's timer is left.
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(5_000);
    await running;
    expect(model.calls[1].request.messages.at(-1)?.content[0]).toEqual({
      type: 'tool-result',
      toolCallId: 'call-1',
      toolName: 'Hang',
      output: 'Tool "Hang" timed out after 5000 ms and was stopped.',
      isError: true,
    });
    expect(clock.pendingTimers).toBe(0);
  });

  it('keeps the result of a tool that finishes in time', async () => {
    const clock = new ManualClock();
    const hang = hangingTool();
    const model = new ScriptedModel([[toolCall('Hang', {}, 'call-1')], 'Recovered.']);
    const running = run(model, { tools: [hang.tool], clock });
    await hang.started;
    await clock.advance(60_000);
    hang.finish('finished after a minute');
    await running;
    expect(model.calls[1].request.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'Hang', output: 'finished after a minute', isError: false }],
    });
    expect(clock.pendingTimers).toBe(0);
  });
});
