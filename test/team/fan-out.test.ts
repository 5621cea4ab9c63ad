/** A turn that starts more subagents than the limit asks first; a "no" (or nobody to ask) starts none of them. */
import { describe, expect, it } from 'vitest';
import { fanOutReview } from '../../src/engine/delegation/fan-out.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { createTeamHarness, lastMessageText } from '../delegation/team-harness.js';

const { toolCall } = ScriptedModel;
const agentCalls = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    toolCallId: `c${index}`,
    toolName: 'Agent',
    input: { description: `Part ${index + 1}` },
  }));
const signal = new AbortController().signal;

describe('fan-out review', () => {
  it('lets a fan-out up to the limit through, and other tools always', async () => {
    const review = fanOutReview({ confirmAbove: 3 }, { taskId: 't1', role: 'coordinator' });
    expect(await review(agentCalls(3), signal)).toEqual(new Map());
    expect(
      await review(
        [...agentCalls(2), { toolCallId: 'r', toolName: 'Read', input: {} }, { toolCallId: 'g', toolName: 'Grep', input: {} }],
        signal,
      ),
    ).toEqual(new Map());
  });

  it('asks with the count and descriptions; yes starts them, no refuses every Agent call of the turn', async () => {
    const asked: unknown[] = [];
    let answer = false;
    const review = fanOutReview(
      { confirmAbove: 2, confirm: async (request) => (asked.push(request), answer) },
      { taskId: 't1', role: 'coordinator' },
    );
    const calls = [...agentCalls(3), { toolCallId: 'r', toolName: 'Read', input: {} }];
    const refused = await review(calls, signal);
    expect(asked).toEqual([{ taskId: 't1', role: 'coordinator', count: 3, descriptions: ['Part 1', 'Part 2', 'Part 3'] }]);
    expect([...refused.keys()]).toEqual(['c0', 'c1', 'c2']);
    expect(refused.get('c0')).toBe(
      'The user declined starting 3 subagents in one turn (more than 2 need their confirmation). None of them was started: start at most 2 at a time, or do the work with fewer subagents.',
    );
    answer = true;
    expect(await review(calls, signal)).toEqual(new Map());
  });

  it('with nobody to ask, refuses and says how to allow it', async () => {
    const review = fanOutReview({ confirmAbove: 1, howToAllow: 'pass --yes' }, { taskId: 't1', role: 'coordinator' });
    expect((await review(agentCalls(2), signal)).get('c1')).toBe(
      "Starting 2 subagents in one turn needs the user's confirmation (more than 1), and nobody can be asked here (pass --yes). None of them was started: start at most 1 at a time.",
    );
  });
});

describe('fan-out in the team', () => {
  it('a refused fan-out starts no task; the coordinator reads why and goes on', async () => {
    const harness = await createTeamHarness();
    const team = new (await import('../../src/engine/team/agent-team.js')).AgentTeam({
      taskManager: harness.taskManager,
      roles: harness.roles,
      toolbox: () => ({ readOnly: [], edit: [], proposals: async () => [] }),
      modelFor: (role) => harness.model(role),
      fanOut: { confirmAbove: 2 },
    });
    harness.model('coordinator').enqueue(
      Array.from({ length: 3 }, (_, index) =>
        toolCall('Agent', { subagent_type: 'researcher', description: `Part ${index + 1}`, prompt: 'Look.' }),
      ),
      'I will do it with fewer.',
    );
    const run = await team.delegate({ prompt: 'Look everywhere' });
    expect(run.task.status).toBe('completed');
    expect(harness.taskManager.list()).toHaveLength(1);
    expect(lastMessageText(harness.model('coordinator').calls[1]!.request)).toContain(
      "Starting 3 subagents in one turn needs the user's confirmation",
    );
    await harness.taskManager.close();
  });
});
