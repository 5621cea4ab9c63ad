import { describe, expect, it } from 'vitest';
import { ProviderError, StoppedError } from '../../src/engine/errors.js';
import type { ModelRequest, ModelStreamEvent } from '../../src/engine/model/types.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { ScriptedModel, UnexpectedModelCallError } from '../../src/engine/testing/scripted-model.js';
import { echoTool, run } from './support.js';

const { text, toolCall, usage, finish, fail, held } = ScriptedModel;

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'system',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    tools: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('ScriptedModel', () => {
  it('throws naming the call number and the last message when called more often than scripted', async () => {
    const model = new ScriptedModel(['first']);
    await collect(model.stream(request()));
    const lastMessage = { role: 'user' as const, content: [{ type: 'text' as const, text: 'one more question' }] };

    expect(() => model.stream(request({ messages: [lastMessage] }))).toThrow(UnexpectedModelCallError);
    expect(() => model.stream(request({ messages: [lastMessage] }))).toThrow(
      'ScriptedModel: unexpected model call #3; the script had 1 step(s). Last message: user: "one more question"',
    );
    expect(model.calls.map((call) => call.number)).toEqual([1, 2, 3]);
  });

  it('makes runAgent reject when the loop calls the model more often than the test expects', async () => {
    const model = new ScriptedModel([[toolCall('Echo', { text: 'hi' })]]);
    await expect(run(model, { tools: [echoTool()] })).rejects.toThrow(
      /unexpected model call #2; the script had 1 step\(s\)\. Last message: user: \[tool-result Echo: "echo: hi"\]/,
    );
  });

  it('completes scripted events with tool call ids, the default usage and a finish event', async () => {
    const model = new ScriptedModel([
      [text('Reading.'), toolCall('Read', { file_path: 'a.ts' }), toolCall('Read', { file_path: 'b.ts' }, 'mine')],
    ]);
    expect(await collect(model.stream(request()))).toEqual([
      { type: 'text-delta', text: 'Reading.' },
      { type: 'tool-call', toolCallId: 'call_1_0', toolName: 'Read', input: { file_path: 'a.ts' }, rawInput: '{"file_path":"a.ts"}' },
      { type: 'tool-call', toolCallId: 'mine', toolName: 'Read', input: { file_path: 'b.ts' }, rawInput: '{"file_path":"b.ts"}' },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } },
      { type: 'finish', stopReason: 'tool-use' },
    ]);
    expect(model.remainingSteps).toBe(0);
  });

  it('keeps scripted usage and finish events, and uses the configured default usage', async () => {
    const model = new ScriptedModel([[text('a'), usage(7, 3), finish('max-tokens')], 'b', 'c'], {
      defaultUsage: { inputTokens: 1, outputTokens: 2 },
    });
    expect(await collect(model.stream(request()))).toEqual([
      { type: 'text-delta', text: 'a' },
      { type: 'usage', usage: { inputTokens: 7, outputTokens: 3 } },
      { type: 'finish', stopReason: 'max-tokens' },
    ]);
    expect(await collect(model.stream(request()))).toEqual([
      { type: 'text-delta', text: 'b' },
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 2 } },
      { type: 'finish', stopReason: 'end-turn' },
    ]);
    const withoutUsage = new ScriptedModel(['c'], { defaultUsage: null });
    expect(await collect(withoutUsage.stream(request()))).toEqual([
      { type: 'text-delta', text: 'c' },
      { type: 'finish', stopReason: 'end-turn' },
    ]);
  });

  it('records a deep copy of each request without its signal', async () => {
    const model = new ScriptedModel(['ok']);
    const sent = request();
    await collect(model.stream(sent));
    (sent.messages[0].content[0] as { text: string }).text = 'changed later';
    sent.messages.push({ role: 'assistant', content: [] });

    expect(model.calls[0]).toEqual({
      number: 1,
      request: { system: 'system', messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], tools: [] },
      aborted: false,
      stopReason: undefined,
    });
    expect('signal' in model.calls[0].request).toBe(false);
  });

  it('throws a scripted error, at once or after some events', async () => {
    const error = new ProviderError('server', 'The server failed.', { provider: 'scripted' });
    const model = new ScriptedModel([error, fail(error, [text('half')])]);
    await expect(collect(model.stream(request()))).rejects.toBe(error);

    const seen: ModelStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of model.stream(request())) seen.push(event);
      })(),
    ).rejects.toBe(error);
    expect(seen).toEqual([{ type: 'text-delta', text: 'half' }]);
  });

  it('decides a dynamic step from the request', async () => {
    const model = new ScriptedModel([(sent) => `You said ${JSON.stringify(sent.messages.length)} message(s).`]);
    expect(await collect(model.stream(request()))).toContainEqual({ type: 'text-delta', text: 'You said 1 message(s).' });
  });

  it('holds a step until released', async () => {
    const hold = held([text('Hal')], [text('f')]);
    const model = new ScriptedModel([hold]);
    const events = collect(model.stream(request()));
    await hold.reached;
    hold.release();
    expect(await events).toEqual([
      { type: 'text-delta', text: 'Hal' },
      { type: 'text-delta', text: 'f' },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } },
      { type: 'finish', stopReason: 'end-turn' },
    ]);
  });

  it('ends a held step with a StoppedError carrying the reason when its signal aborts, and records the abort', async () => {
    const hold = held([text('Hal')]);
    const model = new ScriptedModel([hold]);
    const controller = new AbortController();
    const events = collect(model.stream(request({ signal: controller.signal })));
    await hold.reached;
    controller.abort({ kind: 'shutdown' });

    const error: unknown = await events.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(StoppedError);
    expect((error as StoppedError).reason).toEqual({ kind: 'shutdown' });
    expect(model.calls[0]).toMatchObject({ aborted: true, stopReason: { kind: 'shutdown' } });
  });

  it('records an abort that comes between the call and its first event', async () => {
    const model = new ScriptedModel(['never streamed']);
    const controller = new AbortController();
    const stream = model.stream(request({ signal: controller.signal }));
    controller.abort({ kind: 'user' });
    await expect(collect(stream)).rejects.toBeInstanceOf(StoppedError);
    expect(model.calls[0]).toMatchObject({ aborted: true, stopReason: { kind: 'user' } });
  });

  it('waits its latency on the injected clock before streaming', async () => {
    const clock = new ManualClock();
    const model = new ScriptedModel(['late'], { latencyMs: 1000, clock });
    let done = false;
    const events = collect(model.stream(request())).finally(() => (done = true));
    await clock.advance(999);
    expect(done).toBe(false);
    await clock.advance(1);
    expect(await events).toContainEqual({ type: 'text-delta', text: 'late' });
  });

  it('records nothing with recordCalls off, but still counts calls and fails on surprises', async () => {
    const model = new ScriptedModel(['only'], { recordCalls: false });
    await collect(model.stream(request()));
    expect(model.calls).toEqual([]);
    expect(model.callTotal).toBe(1);
    expect(() => model.stream(request())).toThrow(/unexpected model call #2/);
  });
});
