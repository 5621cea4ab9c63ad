import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { echoTool, run } from './support.js';

const { text, toolCall } = ScriptedModel;

describe('the turn limit', () => {
  it('ends the run as max-turns with the output so far, an error and a notice', async () => {
    // Only two steps: a third model call would throw and fail the test.
    const model = new ScriptedModel([
      [text('First look.'), toolCall('Echo', { text: 'a' })],
      [text('Second look.'), toolCall('Echo', { text: 'b' }, 'last')],
    ]);
    const result = await run(model, { tools: [echoTool()], maxTurns: 2 });

    const error = 'Reached the limit of 2 model turns before the agent finished.';
    expect(result).toMatchObject({ status: 'max-turns', error, output: 'First look.\n\nSecond look.', turns: 2 });
    expect(result.transcript.at(-1)).toEqual({ type: 'notice', text: error });
    // The last call was answered, so the conversation can be continued.
    expect(result.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool-result', toolCallId: 'last', toolName: 'Echo', output: 'echo: b', isError: false }],
    });
  });

  it('defaults to 50 turns', async () => {
    const model = new ScriptedModel(Array.from({ length: 50 }, () => [toolCall('Echo', { text: 'again' })]));
    const result = await run(model, { tools: [echoTool()] });
    expect(result).toMatchObject({ status: 'max-turns', turns: 50 });
    expect(model.calls).toHaveLength(50);
  });
});

describe('notices', () => {
  it('adds pending notices before later turns, in the user message with the tool results, and records them', async () => {
    const pending = [['background task t3 completed', 'background task t4 failed'], []];
    let taken = 0;
    const takeNotices = () => pending[taken++] ?? [];
    const model = new ScriptedModel([[toolCall('Echo', { text: 'a' }, 'call-1')], [toolCall('Echo', { text: 'b' }, 'call-2')], 'Done.']);
    const result = await run(model, { tools: [echoTool()], takeNotices });

    expect(result.status).toBe('completed');
    // Before turns 2 and 3 only: not before the first, not after the last.
    expect(taken).toBe(2);
    expect(model.calls[1].request.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool-result', toolCallId: 'call-1', toolName: 'Echo', output: 'echo: a', isError: false },
        { type: 'text', text: '[Agent Team notice] background task t3 completed' },
        { type: 'text', text: '[Agent Team notice] background task t4 failed' },
      ],
    });
    expect(model.calls[2].request.messages.at(-1)?.content).toHaveLength(1);
    expect(result.transcript.map((entry) => entry.type)).toEqual([
      'tool-call',
      'tool-result',
      'notice',
      'notice',
      'tool-call',
      'tool-result',
      'text',
    ]);
    expect(result.transcript[2]).toEqual({ type: 'notice', text: 'background task t3 completed' });
    // No two user messages in a row anywhere in the conversation.
    const roles = result.messages.map((message) => message.role);
    expect(roles).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  });
});

describe('the points around a turn (hooks use them)', () => {
  it('afterToolCalls sees each call with its result; its notices join the results, secrets replaced', async () => {
    const seen: unknown[] = [];
    const model = new ScriptedModel([[toolCall('Echo', { text: 'a' }, 'call-1')], 'Done.']);
    const result = await run(model, {
      tools: [echoTool()],
      secrets: () => ['sk-live-123456'],
      afterToolCalls: async (calls) => (seen.push(...calls), ['formatter said: key sk-live-123456 seen']),
    });
    expect(result.status).toBe('completed');
    expect(seen).toEqual([{ toolCallId: 'call-1', toolName: 'Echo', input: { text: 'a' }, output: 'echo: a', isError: false }]);
    const notice = model.calls[1].request.messages.at(-1)?.content.at(-1);
    expect(notice).toMatchObject({ type: 'text' });
    expect(JSON.stringify(notice)).not.toContain('sk-live-123456');
  });

  it('reviewFinish sends the agent back with a notice; endRequested ends the run after the turn, telling the user', async () => {
    let reviews = 0;
    const model = new ScriptedModel(['First answer.', 'Second answer.']);
    const result = await run(model, { reviewFinish: async () => (reviews++ === 0 ? 'Run the tests first.' : undefined) });
    expect(result).toMatchObject({ status: 'completed', output: 'Second answer.' });
    expect(model.calls[1].request.messages.at(-1)?.content.at(-1)).toEqual({
      type: 'text',
      text: '[Agent Team notice] Run the tests first.',
    });

    const ending = new ScriptedModel([[toolCall('Echo', { text: 'a' })], 'Never asked.']);
    const ended = await run(ending, { tools: [echoTool()], endRequested: () => 'A release freeze is on.' });
    expect(ended.status).toBe('completed');
    expect(ending.calls).toHaveLength(1);
    expect(ended.transcript.at(-1)).toEqual({ type: 'notice', text: 'A release freeze is on.' });
  });
});
