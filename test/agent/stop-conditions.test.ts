/** The list of stop conditions (stop-conditions.ts): asked in order after a step, the first that holds wins, and who decided is reported. */
import { describe, expect, it } from 'vitest';
import { endWhen, reviewAnswer, toolEndedRun, turnLimit, userReplies } from '../../src/engine/agent/stop-condition-kinds.js';
import { decideStep, type StopCondition, type StopStep } from '../../src/engine/agent/stop-conditions.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { echoTool, run } from './support.js';

const { text, toolCall } = ScriptedModel;

function answerStep(turn = 1, signal = new AbortController().signal): StopStep {
  return { turn, answer: 'Done.', toolCalls: [], signal };
}

function toolStep(turn = 1, signal = new AbortController().signal): StopStep {
  return { turn, answer: '', toolCalls: [{}], signal };
}

/** A condition that records being asked and answers as told. */
function spy(name: string, on: StopCondition['on'], decision: ReturnType<StopCondition['check']>, asked: string[]): StopCondition {
  return { name, on, check: () => (asked.push(name), decision) };
}

describe('deciding a step', () => {
  it('asks in the list order and the first that holds wins: the ones after it are not asked', async () => {
    const asked: string[] = [];
    const conditions = [
      spy('a', 'tool-calls', undefined, asked),
      spy('b', 'tool-calls', { stop: { status: 'completed', notice: 'b' } }, asked),
      spy('c', 'tool-calls', { stop: { status: 'completed', notice: 'c' } }, asked),
    ];
    expect(await decideStep(conditions, toolStep())).toEqual({ kind: 'end', by: 'b', stop: { status: 'completed', notice: 'b' } });
    expect(asked).toEqual(['a', 'b']);
  });

  it('asks only the conditions of the step: after tool calls the answer reviews are not asked, and the run goes on', async () => {
    const asked: string[] = [];
    const conditions = [spy('review', 'answer', { resume: 'again' }, asked), spy('end', 'tool-calls', undefined, asked)];
    expect(await decideStep(conditions, toolStep())).toEqual({ kind: 'go-on' });
    expect(asked).toEqual(['end']);
  });

  it('reports an answer no condition holds for as the natural end, by "answered"', async () => {
    expect(await decideStep([reviewAnswer('review', async () => undefined)], answerStep())).toEqual({
      kind: 'end',
      by: 'answered',
      stop: { status: 'completed' },
    });
  });

  it("asks a review before the user's reply whatever the list's order; a review that sends the agent back wins", async () => {
    const asked: string[] = [];
    const chat = userReplies('chat', async () => (asked.push('chat'), 'more please'));
    const review = reviewAnswer('stop-hook', async () => (asked.push('stop-hook'), 'Run the tests first.'));
    expect(await decideStep([chat, review], answerStep())).toEqual({
      kind: 'go-on',
      by: 'stop-hook',
      goOn: { resume: 'Run the tests first.' },
    });
    expect(asked).toEqual(['stop-hook']);
    expect(await decideStep([chat], answerStep())).toEqual({ kind: 'go-on', by: 'chat', goOn: { reply: 'more please' } });
  });

  it('the turn limit is asked whenever the run would go on, also after a review sent it back, and ends it with the reason', async () => {
    const limit = turnLimit(3);
    expect(await decideStep([limit], toolStep(2))).toEqual({ kind: 'go-on' });
    const error = 'Reached the limit of 3 model turns before the agent finished.';
    expect(await decideStep([limit], toolStep(3))).toEqual({
      kind: 'end',
      by: 'max-turns',
      stop: { status: 'max-turns', error, notice: error },
    });
    const review = reviewAnswer('review', async () => 'again');
    expect(await decideStep([review, limit], answerStep(3))).toMatchObject({ kind: 'end', by: 'max-turns', goOn: { resume: 'again' } });
    // An answer that stands ends the run as completed, limit or not.
    expect(await decideStep([limit], answerStep(3))).toMatchObject({ kind: 'end', by: 'answered' });
  });

  it('a tool that ended the run wins over an end a hook asked for, and reports the call', async () => {
    const step: StopStep = { ...toolStep(), toolCalls: [{}, { ending: { toolName: 'Finish', input: { result: 'x' }, output: 'x' } }] };
    expect(await decideStep([toolEndedRun(), endWhen('hooks', () => 'freeze')], step)).toEqual({
      kind: 'end',
      by: 'tool-ended-run',
      stop: { status: 'completed', output: 'x', endedBy: { toolName: 'Finish', input: { result: 'x' } } },
    });
  });

  it('a stop while a condition was awaited stops the run, also when the condition threw because of it', async () => {
    const controller = new AbortController();
    const review = reviewAnswer('review', async () => (controller.abort(), 'again'));
    expect(await decideStep([review], answerStep(1, controller.signal))).toEqual({ kind: 'stopped', by: 'review' });
    const waiting = new AbortController();
    const chat = userReplies('chat', async () => {
      waiting.abort();
      throw new Error('the wait was cut short');
    });
    expect(await decideStep([chat], answerStep(1, waiting.signal))).toEqual({ kind: 'stopped', by: 'chat' });
    await expect(decideStep([userReplies('chat', () => Promise.reject(new Error('a bug')))], answerStep())).rejects.toThrow('a bug');
  });
});

describe('the loop asks the list', () => {
  it('a condition given as stopWhen ends a run after its tool calls, told to the user, before the turn limit', async () => {
    const model = new ScriptedModel([[toolCall('Echo', { text: 'a' })], [toolCall('Echo', { text: 'b' })], 'never asked']);
    const freeze = endWhen('freeze', () => 'A release freeze is on.');
    const result = await run(model, { tools: [echoTool()], stopWhen: [freeze], maxTurns: 1 });
    expect(result).toMatchObject({ status: 'completed', turns: 1 });
    expect(result.transcript.at(-1)).toEqual({ type: 'notice', text: 'A release freeze is on.' });
  });

  it('the turn limit is one condition: a run that would go on past it ends as max-turns', async () => {
    const model = new ScriptedModel([[toolCall('Echo', { text: 'a' })], [text('never asked')]]);
    const result = await run(model, { tools: [echoTool()], maxTurns: 1 });
    expect(result).toMatchObject({ status: 'max-turns', turns: 1, error: 'Reached the limit of 1 model turns before the agent finished.' });
  });
});
