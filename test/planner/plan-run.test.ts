import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { type TeamHarness, createTeamHarness, lastMessageText, toolNamesOf } from '../delegation/team-harness.js';

const { text, toolCall } = ScriptedModel;
let harness: TeamHarness;

afterEach(async () => {
  await harness.taskManager.close();
  harness.roles.dispose();
});

function tree(): string[] {
  const tasks = harness.taskManager.list();
  const depthOf = (id: string | null): number => (id === null ? 0 : 1 + depthOf(tasks.find((task) => task.id === id)?.parentId ?? null));
  return tasks.map((task) => `${'  '.repeat(depthOf(task.parentId))}${task.role}: ${task.description} (${task.status})`);
}

const plan = (type: 'llm' | 'parallel' | 'sequential', subTasks: Array<string | { task: string; role?: string }> = []) => [
  toolCall('SubmitPlan', { type, sub_tasks: subTasks }),
];

describe('the recursive planner', () => {
  it('plans parallel sub-tasks, plans them again one level down, and synthesizes every result', async () => {
    harness = await createTeamHarness({ maxDepth: 2 });
    harness
      .model('planner')
      .enqueue(plan('parallel', ['Survey the parser', { task: 'Review the printer', role: 'reviewer' }]), plan('llm'), plan('llm'));
    harness.model('researcher').enqueue('The parser uses JSON.parse.');
    harness.model('reviewer').enqueue('The printer is fine.');
    harness.model('synthesizer').enqueue('Parser uses JSON.parse; printer fine.');
    const { task } = await harness.team.plan({ task: 'Audit the codec' });
    expect(task).toMatchObject({ role: 'plan', status: 'completed', output: 'Parser uses JSON.parse; printer fine.' });
    expect(tree()).toEqual([
      'plan: Audit the codec (completed)',
      '  planner: Plan: Audit the codec (completed)',
      '  plan: Survey the parser (completed)',
      '  plan: Review the printer (completed)',
      '    planner: Plan: Survey the parser (completed)',
      '    planner: Plan: Review the printer (completed)',
      '    researcher: Survey the parser (completed)',
      '    reviewer: Review the printer (completed)',
      '  synthesizer: Combine: Audit the codec (completed)',
    ]);
    // The planner is offered exactly one tool.
    expect(toolNamesOf(harness.model('planner').calls[0].request)).toEqual(['SubmitPlan']);
    const synthesis = lastMessageText(harness.model('synthesizer').calls[0].request);
    expect(synthesis).toContain('## Sub-task 1 (completed): Survey the parser\nThe parser uses JSON.parse.');
    expect(synthesis).toContain('## Sub-task 2 (completed): Review the printer\nThe printer is fine.');
    expect(toolNamesOf(harness.model('synthesizer').calls[0].request)).toEqual([]);
  });

  it('at the depth limit a task is done by one agent without a planner call', async () => {
    harness = await createTeamHarness({ maxDepth: 1 });
    harness.model('planner').enqueue(plan('sequential', ['Find the bug', 'Explain it']));
    harness.model('researcher').enqueue('Found in a.ts:3.', 'It divides by zero.');
    const { task } = await harness.team.plan({ task: 'Explain the crash' });
    expect(task.output).toBe('It divides by zero.');
    expect(harness.model('planner').calls).toHaveLength(1);
    // Sequential: the second sub-task carries the first one's result, with no call in between.
    // (after the task it is part of, as context: plan-ancestors.test.ts)
    expect(lastMessageText(harness.model('researcher').calls[1].request)).toMatch(
      /\nYour task:\nExplain it\n\nThe result of the previous step:\nFound in a\.ts:3\.$/,
    );
  });

  it('a plan over the sub-task limit gets one retry with the reason; a second bad plan runs the task as one agent', async () => {
    harness = await createTeamHarness();
    harness.model('planner').enqueue(plan('parallel', ['a', 'b', 'c']), plan('parallel', ['a', 'b', 'c', 'd']));
    harness.model('researcher').enqueue('Did it all myself.');
    const { task } = await harness.team.plan({ task: 'Do three things', maxSubtasks: 2 });
    expect(task).toMatchObject({ status: 'completed', output: 'Did it all myself.' });
    expect(lastMessageText(harness.model('planner').calls[1].request)).toContain(
      'Your plan could not be used: The plan has 3 sub-tasks; at most 2 are allowed.',
    );
    const planner = harness.taskManager.list().find((entry) => entry.role === 'planner');
    expect(planner?.output).toMatch(/^No usable plan after one retry \(The plan has 4 sub-tasks/);
    expect(tree()).toEqual([
      'plan: Do three things (completed)',
      '  planner: Plan: Do three things (completed)',
      '  researcher: Do three things (completed)',
    ]);
  });

  it('a plan with an unknown role, then a valid one, is used', async () => {
    harness = await createTeamHarness({ maxDepth: 1 });
    harness.model('planner').enqueue(plan('parallel', [{ task: 'x', role: 'astronaut' }]), plan('llm'));
    harness.model('researcher').enqueue('Done.');
    await harness.team.plan({ task: 'Something' });
    expect(lastMessageText(harness.model('planner').calls[1].request)).toContain(
      'Unknown role "astronaut" in the plan. Known roles: researcher, reviewer, refactorer.',
    );
  });

  it('a planner that answers without SubmitPlan is retried, then the task runs as one agent', async () => {
    harness = await createTeamHarness();
    harness.model('planner').enqueue('I think we should split it.', 'Still no call.');
    harness.model('researcher').enqueue('Done alone.');
    const { task } = await harness.team.plan({ task: 'Something' });
    expect(task.output).toBe('Done alone.');
    expect(lastMessageText(harness.model('planner').calls[1].request)).toContain(
      'Your plan could not be used: you did not call SubmitPlan.',
    );
  });

  it('stopping one parallel branch lets the others finish; the synthesizer hears it was stopped', async () => {
    harness = await createTeamHarness({ maxDepth: 1 });
    harness.model('planner').enqueue(plan('parallel', ['Slow part', { task: 'Quick part', role: 'reviewer' }]));
    const slow = ScriptedModel.held([text('Working on the slow part')]);
    harness.model('researcher').enqueue(slow);
    harness.model('reviewer').enqueue('Quick part done.');
    harness.model('synthesizer').enqueue('Quick part done; the slow part was stopped.');
    const run = harness.team.plan({ task: 'Two parts' });
    await slow.reached;
    const slowNode = harness.taskManager.list().find((entry) => entry.role === 'plan' && entry.description === 'Slow part');
    await harness.taskManager.stop(slowNode?.id as string);
    const { task } = await run;
    expect(task).toMatchObject({ status: 'completed', output: 'Quick part done; the slow part was stopped.' });
    const synthesis = lastMessageText(harness.model('synthesizer').calls[0].request);
    expect(synthesis).toContain('## Sub-task 1 (stopped): Slow part\nWorking on the slow part\n(plan task');
    expect(synthesis).toContain('stopped: stopped by the user)');
    expect(synthesis).toContain('## Sub-task 2 (completed): Quick part\nQuick part done.');
  });
});
