import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { type TeamHarness, createTeamHarness, lastMessageText } from './team-harness.js';

const { toolCall } = ScriptedModel;
let harness: TeamHarness;

afterEach(async () => {
  await harness.taskManager.close();
  harness.roles.dispose();
});

function agentToolDescription(role: string): string {
  const request = harness.model(role).calls[0].request;
  return request.tools.find((tool) => tool.name === 'Agent')?.description ?? '';
}

describe('delegation reach: a subagent never gets more power than the agent that starts it', () => {
  it('a read-only researcher run directly cannot hand work to the refactorer; the roster says so', async () => {
    harness = await createTeamHarness();
    harness
      .model('researcher')
      .enqueue([toolCall('Agent', { subagent_type: 'refactorer', description: 'Fix it', prompt: 'Edit a.ts' })], 'I could not edit.');
    const { task } = await harness.team.delegate({ prompt: 'Look and fix', role: 'researcher' });
    expect(task.status).toBe('completed');
    expect(harness.taskManager.list().map((entry) => entry.role)).toEqual(['researcher']);
    const refusal = lastMessageText(harness.model('researcher').calls[1].request);
    expect(refusal).toContain('You may not hand work to "refactorer": it can use Edit, Write, Bash, which you cannot');
    expect(refusal).toContain('Roles you may use: researcher.');
    const description = agentToolDescription('researcher');
    expect(description).toContain('- researcher:');
    expect(description).not.toContain('- refactorer:');
    // Running commands is a power too: the reviewer, which may, is out of the researcher's reach.
    expect(description).toContain(
      'Not available to you, since they can use tools you cannot: reviewer (Bash); refactorer (Edit, Write, Bash).',
    );
  });

  it('a read-only workspace role cannot reach a workspace role that edits, nor a role with no tool list', async () => {
    harness = await createTeamHarness();
    harness.roleFiles.files.set(
      '.agent-team/agents/auditor.md',
      '---\nname: auditor\ndescription: Audits.\ntools: [Read, Grep, Agent]\n---\nAudit.',
    );
    harness.roleFiles.files.set('.agent-team/agents/fixer.md', '---\nname: fixer\ndescription: Fixes.\n---\nFix.');
    await harness.roles.load();
    harness.model('auditor').enqueue([toolCall('Agent', { subagent_type: 'fixer', description: 'Fix', prompt: 'Fix a.ts' })], 'Done.');
    await harness.team.delegate({ prompt: 'Audit', role: 'auditor' });
    expect(lastMessageText(harness.model('auditor').calls[1].request)).toContain(
      'You may not hand work to "fixer": it can use Glob, Edit, Write',
    );
  });

  it('the coordinator reaches every role, and the refactorer reaches the read-only ones', async () => {
    harness = await createTeamHarness();
    harness
      .model('coordinator')
      .enqueue([toolCall('Agent', { subagent_type: 'refactorer', description: 'Fix it', prompt: 'Edit a.ts' })], 'Done.');
    harness
      .model('refactorer')
      .enqueue([toolCall('Agent', { subagent_type: 'reviewer', description: 'Check', prompt: 'Review a.ts' })], 'Fixed and reviewed.');
    harness.model('reviewer').enqueue('Looks right.');
    await harness.team.delegate({ prompt: 'Fix and review' });
    expect(harness.taskManager.list().map((entry) => `${entry.role}:${entry.status}`)).toEqual([
      'coordinator:completed',
      'refactorer:completed',
      'reviewer:completed',
    ]);
    expect(agentToolDescription('coordinator')).not.toContain('Not available to you');
  });

  it('the user can lift the rule with delegationReach "any"', async () => {
    harness = await createTeamHarness({ delegationReach: 'any' });
    harness
      .model('researcher')
      .enqueue([toolCall('Agent', { subagent_type: 'refactorer', description: 'Fix it', prompt: 'Edit a.ts' })], 'Delegated.');
    harness.model('refactorer').enqueue('Proposed.');
    await harness.team.delegate({ prompt: 'Look and fix', role: 'researcher' });
    expect(harness.taskManager.list().map((entry) => entry.role)).toEqual(['researcher', 'refactorer']);
  });
});

describe('the models of a run are chosen when it starts', () => {
  it("a subagent started after the settings changed still uses its run's chooser", async () => {
    harness = await createTeamHarness();
    const first = new ScriptedModel([], { modelId: 'first-model' });
    const second = new ScriptedModel([], { modelId: 'second-model' });
    first.enqueue([toolCall('Agent', { subagent_type: 'researcher', description: 'Look', prompt: 'Look' })], 'Done.');
    first.enqueue('Found it.');
    const run = harness.team.delegate({ prompt: 'First run', modelFor: () => first });
    // A second run with other settings starts while the first is under way.
    second.enqueue('Second run answer.');
    await harness.team.delegate({ prompt: 'Second run', modelFor: () => second, role: 'researcher' });
    await run;
    const models = Object.fromEntries(harness.taskManager.list().map((task) => [`${task.id}:${task.role}`, task.model]));
    expect(models).toEqual({
      't1:coordinator': 'scripted/first-model',
      't2:researcher': 'scripted/second-model',
      't3:researcher': 'scripted/first-model',
    });
  });
});
