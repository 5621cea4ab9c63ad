/**
 * A role file's limits and result shape in a team, over scripted models: the repair turn and the JSON the
 * parent gets, the failure after it, a prompt refused before the task starts (delegated or run directly),
 * and a role's token limit over its subtree.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { type TeamHarness, createTeamHarness, lastMessageText } from './team-harness.js';

const { toolCall } = ScriptedModel;
let harness: TeamHarness;

afterEach(async () => {
  await harness.taskManager.close();
  harness.roles.dispose();
});

async function withRole(name: string, frontMatter: string): Promise<TeamHarness> {
  harness = await createTeamHarness();
  harness.roleFiles.files.set(
    `.agent-team/agents/${name}.md`,
    `---\ndescription: The ${name}.\n${frontMatter}\n---\nYou are the ${name}.\n`,
  );
  await harness.roles.load();
  return harness;
}

const outputSchema = 'tools: [Read]\noutputSchema:\n  type: object\n  properties: {count: {type: integer}}\n  required: [count]';

describe('a role with an outputSchema', () => {
  it('is told the shape, sent back once with what is wrong, and its parent gets the JSON alone', async () => {
    await withRole('counter', outputSchema);
    harness
      .model('coordinator')
      .enqueue([toolCall('Agent', { subagent_type: 'counter', description: 'Count', prompt: 'Count the files.' })], 'Done.');
    harness.model('counter').enqueue('There are three files.', 'Sorry: {"count": 3}');
    const { task } = await harness.team.delegate({ prompt: 'Count' });
    expect(task.status).toBe('completed');
    const counterCalls = harness.model('counter').calls;
    expect(counterCalls).toHaveLength(2);
    expect(counterCalls[0].request.system).toContain('# The shape of your answer');
    expect(lastMessageText(counterCalls[1].request)).toContain('the answer does not end with a JSON value');
    const child = harness.taskManager.list().find((snapshot) => snapshot.role === 'counter');
    expect(child).toMatchObject({ status: 'completed', output: '{\n  "count": 3\n}' });
    expect(lastMessageText(harness.model('coordinator').calls[1].request)).toBe(
      `Task ${child?.id} (counter: "Count") completed.\n\n{\n  "count": 3\n}`,
    );
  });

  it('fails with the validation error when the repaired answer is still wrong; its answer is kept as partial output', async () => {
    await withRole('counter', outputSchema);
    harness.model('counter').enqueue('{"count": "three"}', '{"count": 3.5}');
    const { task } = await harness.team.delegate({ prompt: 'Count', role: 'counter' });
    expect(task).toMatchObject({
      status: 'failed',
      error: "the answer does not match the role's outputSchema: /count must be integer",
      output: '{"count": 3.5}',
    });
    expect(harness.model('counter').calls).toHaveLength(2);
  });

  it('asks for no repair when the answer already matches', async () => {
    await withRole('counter', outputSchema);
    harness.model('counter').enqueue('{"count": 3}');
    const { task } = await harness.team.delegate({ prompt: 'Count', role: 'counter' });
    expect(task).toMatchObject({ status: 'completed', output: '{\n  "count": 3\n}' });
    expect(harness.model('counter').calls).toHaveLength(1);
  });
});

describe('a role with an inputSchema', () => {
  const inputSchema = 'tools: [Read]\ninputSchema:\n  type: object\n  properties: {city: {type: string}}\n  required: [city]';

  it('lists the schema in the Agent tool, and a delegated prompt that does not match never starts a task', async () => {
    await withRole('booker', inputSchema);
    harness
      .model('coordinator')
      .enqueue([toolCall('Agent', { subagent_type: 'booker', description: 'Book', prompt: 'Paris please' })], 'Could not book.');
    await harness.team.delegate({ prompt: 'Book' });
    const agentTool = harness.model('coordinator').calls[0].request.tools.find((tool) => tool.name === 'Agent');
    expect(agentTool?.description).toContain(
      '- booker: The booker. Its prompt must be JSON matching this schema: {"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}',
    );
    expect(lastMessageText(harness.model('coordinator').calls[1].request)).toContain(
      '"booker" takes a JSON prompt matching its input schema (in this tool\'s description), so the task was not started: the prompt is not JSON',
    );
    expect(harness.taskManager.list().map((snapshot) => snapshot.role)).toEqual(['coordinator']);
    expect(harness.model('booker').calls).toHaveLength(0);
  });

  it('run directly with a prompt that does not match, fails before its model is asked', async () => {
    await withRole('booker', inputSchema);
    const { task } = await harness.team.delegate({ prompt: '{"city": 7}', role: 'booker' });
    expect(task).toMatchObject({
      status: 'failed',
      error: "booker did not start: the prompt does not match the role's inputSchema: /city must be string",
    });
    expect(harness.model('booker').calls).toHaveLength(0);
  });
});

describe("a role's maxTokens", () => {
  it('stops the role when its task passes it, and the parent goes on with the stopped result', async () => {
    await withRole('digger', 'tools: [Read]\nmaxTokens: 10');
    harness.model('coordinator').enqueue([toolCall('Agent', { subagent_type: 'digger', description: 'Dig', prompt: 'Dig.' })], 'Went on.');
    // A scripted turn costs 15 tokens: the first passes the limit.
    harness.model('digger').enqueue([toolCall('Read', { file_path: 'a.ts' })], 'Never reached.');
    const { task } = await harness.team.delegate({ prompt: 'Dig' });
    expect(task).toMatchObject({ status: 'completed', output: 'Went on.' });
    const digger = harness.taskManager.list().find((snapshot) => snapshot.role === 'digger');
    expect(digger).toMatchObject({
      status: 'stopped',
      budgetTokens: 10,
      stopReason: { kind: 'budget', detail: `task ${digger?.id} and its subtasks used 15 tokens, over the budget of 10` },
    });
    expect(lastMessageText(harness.model('coordinator').calls[1].request)).toContain('was budget exceeded');
  });
});
