import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { type TeamHarness, createTeamHarness, lastMessageText, toolNamesOf } from './team-harness.js';

const { text, toolCall } = ScriptedModel;
let harness: TeamHarness;

afterEach(async () => {
  await harness.taskManager.close();
  harness.roles.dispose();
});

/** The coordinator delegates a search in the foreground; the researcher's answer is held until the test releases it. */
async function startSlowSearch(team: TeamHarness) {
  const slowAnswer = ScriptedModel.held([text('Still reading…')], [text(' Found it.')]);
  team
    .model('coordinator')
    .enqueue(
      [toolCall('Agent', { subagent_type: 'researcher', description: 'Slow search', prompt: 'Search everything' })],
      [toolCall('TaskOutput', { task_id: 't2' })],
      'All done.',
    );
  team.model('researcher').enqueue(slowAnswer);
  const run = team.team.delegate({ prompt: 'Explore' });
  await slowAnswer.reached;
  return { slowAnswer, run };
}

describe('the Agent tool', () => {
  it('answers an unknown role with an error listing the known roles, and the run goes on', async () => {
    harness = await createTeamHarness();
    harness
      .model('coordinator')
      .enqueue([toolCall('Agent', { subagent_type: 'astronaut', description: 'Fly', prompt: 'Go' })], 'I will do it myself.');
    const { task } = await harness.team.delegate({ prompt: 'Explore' });
    expect(task.status).toBe('completed');
    const result = lastMessageText(harness.model('coordinator').calls[1].request);
    expect(result).toContain('Unknown subagent_type "astronaut"');
    expect(result).toContain('researcher, reviewer, refactorer');
    expect(harness.taskManager.list()).toHaveLength(1);
  });

  it('uses the description as the prompt when the prompt is empty', async () => {
    harness = await createTeamHarness();
    harness
      .model('coordinator')
      .enqueue([toolCall('Agent', { subagent_type: 'researcher', description: 'Find the date parser', prompt: '  ' })], 'Done.');
    harness.model('researcher').enqueue('It is in dates.ts.');
    await harness.team.delegate({ prompt: 'Explore' });
    const child = harness.taskManager.list().find((task) => task.role === 'researcher');
    expect(child?.prompt).toBe('Find the date parser');
    expect(lastMessageText(harness.model('researcher').calls[0].request)).toBe('Find the date parser');
  });

  it('returns the task id and the final answer in the foreground, never the transcript', async () => {
    harness = await createTeamHarness();
    harness
      .model('coordinator')
      .enqueue(
        [toolCall('Agent', { subagent_type: 'researcher', description: 'Find usages', prompt: 'Find usages of parse' })],
        'Summary.',
      );
    harness
      .model('researcher')
      .enqueue(
        [text('Thinking out loud about SECRET_TRANSCRIPT_DETAIL.'), toolCall('Grep', { pattern: 'parse' })],
        'Final: parse is used in a.ts:3.',
      );
    await harness.team.delegate({ prompt: 'Explore' });
    const child = harness.taskManager.list().find((task) => task.role === 'researcher');
    const result = lastMessageText(harness.model('coordinator').calls[1].request);
    expect(result).toContain(`Task ${child?.id} (researcher: "Find usages") completed.`);
    expect(result).toContain('Final: parse is used in a.ts:3.');
    expect(result).not.toContain('SECRET_TRANSCRIPT_DETAIL');
    expect(result).not.toContain('Grep');
  });

  it('offers Agent only while depth is below the maximum', async () => {
    harness = await createTeamHarness({ maxDepth: 2 });
    harness
      .model('coordinator')
      .enqueue([toolCall('Agent', { subagent_type: 'reviewer', description: 'Level one', prompt: 'Go deeper' })], 'Done.');
    harness
      .model('reviewer')
      .enqueue([toolCall('Agent', { subagent_type: 'researcher', description: 'Level two', prompt: 'Look' })], 'Level one done.');
    harness.model('researcher').enqueue('Level two done.');
    await harness.team.delegate({ prompt: 'Explore' });
    expect(toolNamesOf(harness.model('coordinator').calls[0].request)).toContain('Agent');
    expect(toolNamesOf(harness.model('reviewer').calls[0].request)).toEqual(expect.arrayContaining(['Agent', 'TaskOutput', 'TaskStop']));
    expect(toolNamesOf(harness.model('researcher').calls[0].request)).not.toContain('Agent');
    const depths = harness.taskManager.list().map((task) => [task.role, task.depth]);
    expect(depths).toEqual([
      ['coordinator', 0],
      ['reviewer', 1],
      ['researcher', 2],
    ]);
  });

  it('moves a foreground subagent to the background after the auto-background timeout and says so', async () => {
    harness = await createTeamHarness({ autoBackgroundMs: 5_000 });
    const { slowAnswer, run } = await startSlowSearch(harness);
    await harness.clock.advance(5_000);
    // The coordinator has its second turn now: it learned the id while the researcher still runs.
    const backgroundNote = lastMessageText(harness.model('coordinator').calls[1].request);
    expect(backgroundNote).toContain('moved to the background: task t2');
    expect(harness.taskManager.get('t2')).toMatchObject({ status: 'running', background: true });
    slowAnswer.release();
    const { task } = await run;
    expect(task.status).toBe('completed');
    expect(JSON.stringify(harness.model('coordinator').calls[2].request.messages)).toContain('Still reading… Found it.');
  });

  it("takes the task manager's autoBackgroundMs when the team sets none (TaskManagerOptions.autoBackgroundMs works)", async () => {
    harness = await createTeamHarness({ managerAutoBackgroundMs: 7_000 });
    const { slowAnswer, run } = await startSlowSearch(harness);
    await harness.clock.advance(6_999);
    expect(harness.taskManager.get('t2')).toMatchObject({ status: 'running', background: false });
    await harness.clock.advance(1);
    expect(harness.taskManager.get('t2')).toMatchObject({ status: 'running', background: true });
    slowAnswer.release();
    expect((await run).task.status).toBe('completed');
  });

  it('lists the roster in its description and rebuilds it when role files change', async () => {
    harness = await createTeamHarness();
    harness.model('coordinator').enqueue('First.', 'Second.');
    await harness.team.delegate({ prompt: 'One' });
    const describeAgent = (call: number) =>
      harness.model('coordinator').calls[call].request.tools.find((tool) => tool.name === 'Agent')?.description ?? '';
    expect(describeAgent(0)).toContain('- researcher:');
    expect(describeAgent(0)).not.toContain('security-reviewer');

    harness.roleFiles.files.set(
      '.agent-team/agents/security-reviewer.md',
      '---\nname: security-reviewer\ndescription: Reviews changes for security problems.\ntools: [Read, Grep]\n---\nYou review security.\n',
    );
    await harness.roles.reload();
    await harness.team.delegate({ prompt: 'Two' });
    expect(describeAgent(1)).toContain('- security-reviewer: Reviews changes for security problems.');
  });
});
