/** Compaction inside the agent loop, with a scripted model: the meter's events, `/compact` in a chat, a summary that fails. */
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/engine/errors.js';
import { ScriptedModel } from '../../../src/engine/testing/scripted-model.js';
import { echoTool, prompt, run } from '../support.js';

const summarising = (request: { system: string }) => request.system.startsWith('You summarise the earlier part');

describe('compaction in runAgent', () => {
  it("tells the meter before the usage, compacts past the threshold with the model's summary, and counts its tokens", async () => {
    let turns = 0;
    const model = new ScriptedModel(
      Array.from({ length: 5 }, () => (request: { system: string }) => {
        if (summarising(request)) return [ScriptedModel.text('SUMMARY-1'), ScriptedModel.usage(300, 20)];
        turns += 1;
        return turns < 3
          ? [ScriptedModel.toolCall('Echo', { text: 'x'.repeat(4000) }), ScriptedModel.usage(5000 + turns * 1000, 10)]
          : [ScriptedModel.text('Done.'), ScriptedModel.usage(2000, 5)];
      }),
    );
    const result = await run(model, { tools: [echoTool()], context: { windowTokens: 10_000 } });
    expect(result.status).toBe('completed');
    const types = result.events
      .map((event) => event.type)
      .filter((type) => type === 'context' || type === 'usage' || type === 'compaction');
    // Each turn: the figure, then the usage that carries it; a compaction: its summary's usage, then itself, then the estimate.
    expect(types.slice(0, 2)).toEqual(['context', 'usage']);
    const at = types.indexOf('compaction');
    expect(at).toBeGreaterThan(1);
    expect(types.slice(at - 1, at + 2)).toEqual(['usage', 'compaction', 'context']);
    expect(types.at(-1)).toBe('usage');
    expect(types.at(-2)).toBe('context');
    const compaction = result.events.find((event) => event.type === 'compaction')!;
    expect(compaction).toMatchObject({ trigger: 'auto', summary: 'SUMMARY-1' });
    // The summaries' tokens are the run's.
    const summaries = model.calls.filter((call) => summarising(call.request)).length;
    expect(summaries).toBe(types.filter((type) => type === 'compaction').length);
    expect(result.usage).toEqual({ inputTokens: 6000 + 7000 + 2000 + summaries * 300, outputTokens: 10 + 10 + 5 + summaries * 20 });
    const last = model.calls.at(-1)!.request;
    expect(last.messages[0]!.content).toEqual([
      { type: 'text', text: prompt },
      { type: 'text', text: expect.stringContaining('SUMMARY-1') },
    ]);
    expect(
      result.transcript.some((entry) => entry.type === 'notice' && /^compacted: \d+ → \d+ tokens\n\nSUMMARY-1$/.test(entry.text)),
    ).toBe(true);
  });

  it('/compact in a chat compacts at once, and the next message is awaited without a model turn between', async () => {
    const model = new ScriptedModel([[ScriptedModel.toolCall('Echo', { text: 'a' })], 'First answer.', 'SUMMARY-2', 'Second answer.']);
    const messages = ['/compact keep the echo', 'And now?', undefined];
    const result = await run(model, { tools: [echoTool()], context: {}, nextUserMessage: async () => messages.shift() });
    expect(result.status).toBe('completed');
    expect(result.output).toBe('Second answer.');
    expect(model.calls).toHaveLength(4);
    expect(JSON.stringify(model.calls[2]!.request.messages)).toContain('Focus on: keep the echo');
    const afterwards = JSON.stringify(model.calls[3]!.request.messages);
    expect(afterwards).toContain('SUMMARY-2');
    expect(afterwards).toContain('And now?');
    expect(afterwards).not.toContain('/compact');
  });

  it('a summary that fails leaves the conversation as it was, and the run goes on', async () => {
    const model = new ScriptedModel([
      [ScriptedModel.toolCall('Echo', { text: 'a' }), ScriptedModel.usage(9000, 1)],
      ScriptedModel.fail(new ProviderError('server', 'the summary failed', { provider: 'scripted' })),
      'Done anyway.',
    ]);
    const result = await run(model, { tools: [echoTool()], context: { windowTokens: 10_000 } });
    expect(result.status).toBe('completed');
    expect(result.events.some((event) => event.type === 'compaction')).toBe(false);
    expect(model.calls[2]!.request.messages).toHaveLength(3);
  });

  it('without context options there is no meter and no compaction', async () => {
    const model = new ScriptedModel(['Done.']);
    const result = await run(model);
    expect(result.events.some((event) => event.type === 'context')).toBe(false);
  });
});
