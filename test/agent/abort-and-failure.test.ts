import { describe, expect, it } from 'vitest';
import { ProviderError, StoppedError, type StopReason } from '../../src/engine/errors.js';
import type { Model, ModelStreamEvent } from '../../src/engine/model/types.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { abortListenerCount, echoTool, hangingTool, run } from './support.js';

const { text, toolCall, held, fail } = ScriptedModel;
const budget: StopReason = { kind: 'budget', detail: 'the task used its 1000 tokens' };

describe('stopping a run', () => {
  it('starts no turn when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort({ kind: 'user' });
    const model = new ScriptedModel([]);
    const result = await run(model, { signal: controller.signal });

    expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'user' }, output: '', turns: 0 });
    expect(model.calls).toHaveLength(0);
  });

  it('closes the in-flight request mid-stream, keeps the partial text and the typed reason', async () => {
    const controller = new AbortController();
    const hold = held([text('Half an ans')], [text('wer.')]);
    const model = new ScriptedModel([[text('Looking first.'), toolCall('Echo', { text: 'x' })], hold]);
    const running = run(model, { tools: [echoTool()], signal: controller.signal });
    await hold.reached;
    controller.abort(budget);
    const result = await running;

    expect(result).toMatchObject({ status: 'stopped', stopReason: budget, output: 'Looking first.\n\nHalf an ans', turns: 2 });
    expect(result.error).toBeUndefined();
    expect(model.calls[1]).toMatchObject({ aborted: true, stopReason: budget });
    expect(model.calls[0].aborted).toBe(false);
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Half an ans' }] });
    expect(result.transcript.at(-1)).toEqual({ type: 'text', text: 'Half an ans' });
    expect(abortListenerCount(controller.signal)).toBe(0);
  });

  it('reads the reason off a StoppedError given as the abort reason', async () => {
    const controller = new AbortController();
    const hold = held([]);
    const running = run(new ScriptedModel([hold]), { signal: controller.signal });
    await hold.reached;
    controller.abort(new StoppedError({ kind: 'parent-stopped', parentId: 't1' }));
    expect(await running).toMatchObject({ status: 'stopped', stopReason: { kind: 'parent-stopped', parentId: 't1' } });
  });

  it('answers tool calls streamed before the stop with "stopped", without running them', async () => {
    const controller = new AbortController();
    let executed = false;
    const echo = { ...echoTool(), execute: async () => ((executed = true), 'ran') };
    const hold = held([toolCall('Echo', { text: 'x' }, 'call-1')]);
    const running = run(new ScriptedModel([hold]), { tools: [echo], signal: controller.signal });
    await hold.reached;
    controller.abort({ kind: 'user' });
    const result = await running;

    expect(executed).toBe(false);
    expect(result.messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'Echo', input: { text: 'x' } }] },
      {
        role: 'user',
        content: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'Echo', output: 'stopped: stopped by the user', isError: true }],
      },
    ]);
  });

  it('runs no tool when a usage listener stops the run for its budget', async () => {
    const controller = new AbortController();
    let executed = false;
    const echo = { ...echoTool(), execute: async () => ((executed = true), 'ran') };
    const model = new ScriptedModel([[toolCall('Echo', { text: 'x' }, 'call-1')]]);
    const result = await run(model, {
      tools: [echo],
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'usage' && event.total.inputTokens >= 10) controller.abort(budget);
      },
    });

    expect(executed).toBe(false);
    expect(result).toMatchObject({ status: 'stopped', stopReason: budget, turns: 1 });
    expect(result.messages.at(-1)?.content).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'call-1',
        toolName: 'Echo',
        output: 'stopped: budget exceeded: the task used its 1000 tokens',
        isError: true,
      },
    ]);
  });

  it('stops running tools mid-call and still answers every call exactly once', async () => {
    const controller = new AbortController();
    const hang = hangingTool();
    const model = new ScriptedModel([[toolCall('Echo', { text: 'x' }, 'call-1'), toolCall('Hang', {}, 'call-2')]]);
    const running = run(model, { tools: [echoTool(), hang.tool], signal: controller.signal });
    await hang.started;
    controller.abort({ kind: 'shutdown' });
    const result = await running;

    expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'shutdown' }, turns: 1 });
    expect(hang.contexts[0].signal.aborted).toBe(true);
    expect(result.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool-result', toolCallId: 'call-1', toolName: 'Echo', output: 'echo: x', isError: false },
        {
          type: 'tool-result',
          toolCallId: 'call-2',
          toolName: 'Hang',
          output: 'stopped: stopped because Agent Team shut down',
          isError: true,
        },
      ],
    });
    const resultIds = result.transcript.flatMap((entry) => (entry.type === 'tool-result' ? [entry.toolCallId] : []));
    expect(resultIds.sort()).toEqual(['call-1', 'call-2']);
    expect(model.calls).toHaveLength(1);
    expect(abortListenerCount(controller.signal)).toBe(0);
  });

  it('does not wait for a tool that ignores its signal', async () => {
    const controller = new AbortController();
    let startedResolve = () => {};
    const started = new Promise<void>((resolve) => (startedResolve = resolve));
    const stubborn = { ...echoTool(), name: 'Stubborn', execute: () => (startedResolve(), new Promise<string>(() => {})) };
    const running = run(new ScriptedModel([[toolCall('Stubborn', { text: 'x' }, 'call-1')]]), {
      tools: [stubborn],
      signal: controller.signal,
    });
    await started;
    controller.abort({ kind: 'user' });
    expect((await running).messages.at(-1)?.content).toEqual([
      { type: 'tool-result', toolCallId: 'call-1', toolName: 'Stubborn', output: 'stopped: stopped by the user', isError: true },
    ]);
  });

  it('does not wait for a model adapter that ignores its signal', async () => {
    const controller = new AbortController();
    let requestSignal: AbortSignal | undefined;
    let startedResolve = () => {};
    const started = new Promise<void>((resolve) => (startedResolve = resolve));
    const deaf: Model = {
      provider: 'deaf',
      modelId: 'deaf',
      stream: (request) => {
        requestSignal = request.signal;
        return (async function* (): AsyncGenerator<ModelStreamEvent> {
          yield { type: 'text-delta', text: 'partial' };
          startedResolve();
          await new Promise(() => {});
        })();
      },
    };
    const running = run(deaf, { signal: controller.signal });
    await started;
    controller.abort({ kind: 'user' });
    expect(await running).toMatchObject({ status: 'stopped', output: 'partial' });
    expect(requestSignal?.aborted).toBe(true);
  });
});

describe('model failures', () => {
  const rateLimited = new ProviderError('rate-limit', 'Anthropic rate limit reached: wait a minute, then retry.', {
    provider: 'anthropic',
    status: 429,
  });

  it('ends the run as failed with the provider error message', async () => {
    const result = await run(new ScriptedModel([rateLimited]));
    expect(result).toMatchObject({
      status: 'failed',
      error: 'Anthropic rate limit reached: wait a minute, then retry.',
      output: '',
      turns: 1,
    });
    expect(result.stopReason).toBeUndefined();
  });

  it('keeps the partial output and answers tool calls the failed turn had streamed', async () => {
    const model = new ScriptedModel([
      [text('Step one.'), toolCall('Echo', { text: 'x' })],
      fail(rateLimited, [text('Step two'), toolCall('Echo', { text: 'y' }, 'late')]),
    ]);
    const result = await run(model, { tools: [echoTool()] });

    expect(result).toMatchObject({ status: 'failed', output: 'Step one.\n\nStep two', turns: 2 });
    expect(result.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'late',
          toolName: 'Echo',
          output: 'not run: the model request failed (Anthropic rate limit reached: wait a minute, then retry.)',
          isError: true,
        },
      ],
    });
  });

  it('throws what is not an AgentTeamError: a bug in the adapter must not pass for a provider failure', async () => {
    await expect(run(new ScriptedModel([new TypeError('adapter bug')]))).rejects.toThrow('adapter bug');
  });
});
