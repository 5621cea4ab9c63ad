/**
 * Loops that carry state across rounds, and inline agents (kagent's shape), through the CLI over the real
 * SDKs: the evaluator-optimizer example of the README runs as written.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'poem.md': 'Roses are red.\n' });
const fixture = path.join(import.meta.dirname, '..', 'workflows', 'fixtures', 'evaluator-optimizer.yaml');

async function writeWorkflow(name: string, text: string): Promise<void> {
  const directory = path.join(world.workspace, '.agent-team', 'workflows');
  await mkdir(directory, { recursive: true });
  await writeFile(path.join(directory, name), text);
}

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run --workflow, loop state and inline agents (%s)', (protocol) => {
  it("runs the evaluator-optimizer example: round 2 of the writer carries round 1's critique; the inline agents' system messages and tools reach the provider", async () => {
    await writeWorkflow('evaluator-optimizer.yaml', await readFile(fixture, 'utf8'));
    world.server.respondWith((request) => {
      if (request.system.startsWith('You are a creative writer.')) {
        return textTurn(request.lastMessageText.includes('Too short') ? 'Roses are red, violets are blue.' : 'Roses are red.');
      }
      if (request.system.startsWith('You are a writing critic.')) {
        if (priorTurns(request) > 0) return textTurn('Roses are red, violets are blue.');
        if (!request.lastMessageText.includes('violets')) return textTurn('Too short: add a second line.');
        return toolCallTurn([{ name: 'ExitLoop', input: { reason: 'the poem has both lines' } }]);
      }
      return textTurn(`unexpected agent: ${request.system.slice(0, 40)}`);
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const { code, stdout, stderr } = await startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, '--workflow', 'evaluator-optimizer', 'a two-line poem'],
      provider.env,
    ).exited;
    expect([code, stderr]).toEqual([0, '']);
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'task-start').map((event) => `${event.role}: ${event.description}`)).toEqual([
      'workflow: evaluator-optimizer',
      'writer: Write the draft',
      'critic: Critique the draft',
      'writer: Write the draft',
      'critic: Critique the draft',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Roses are red, violets are blue.' });

    const writer = world.server.requests.filter((request) => request.system.startsWith('You are a creative writer.'));
    expect(writer.map((request) => request.lastMessageText)).toEqual([
      "Write a two-line poem.\nYour previous draft: none yet\nThe critic's notes on it: none yet: this is the first draft",
      "Write a two-line poem.\nYour previous draft: Roses are red.\nThe critic's notes on it: Too short: add a second line.",
    ]);
    const critic = world.server.requests.find((request) =>
      request.system.startsWith('You are a writing critic. Review and improve the content.'),
    );
    expect(critic?.toolNames).toEqual(expect.arrayContaining(['Read', 'Grep', 'ExitLoop']));
    expect(critic?.toolNames).not.toContain('Edit');
    expect(critic?.toolNames).not.toContain('Agent');
  });

  it("an inline agent's model reaches the provider", async () => {
    await writeWorkflow(
      'check.yaml',
      'description: One check.\ntype: sequential\nsteps:\n  - agent: {name: checker, systemMessage: You check poems., model: checker-model-7, tools: [Read]}\n    prompt: "Check {input}"\n',
    );
    world.server.respondWith(() => textTurn('Checked.'));
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, '--workflow', 'check', 'poem.md'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    expect(
      parseEvents(stdout)
        .filter((event) => event.type === 'task-start')
        .map((event) => event.role),
    ).toEqual(['workflow', 'checker']);
    expect(world.server.requests.map((request) => [request.model, request.system.split('\n')[0], request.toolNames])).toEqual([
      ['checker-model-7', 'You check poems.', ['Read']],
    ]);
  });
});

describe('agent-team workflows: loop state and inline agents', () => {
  it('reports a key read inside a loop but written only after it, and an inline agent named like a role, with file, line and field; exit 2', async () => {
    await writeWorkflow(
      'broken.yaml',
      'description: Broken.\ntype: sequential\nsteps:\n  - type: loop\n    max_iterations: 2\n    steps:\n      - agent: {name: reviewer, systemMessage: You are not the reviewer.}\n        prompt: "Review, knowing {verdict}"\n  - agent: researcher\n    prompt: Decide\n    output_key: verdict\n',
    );
    const { code, stderr } = await startCli(world.cliPath, ['workflows', '--workspace', world.workspace], {}).exited;
    expect(code).toBe(2);
    expect(stderr).toBe(
      [
        '.agent-team/workflows/broken.yaml:7: steps[0].steps[0].agent.name: "reviewer" is the name of a role; give the inline agent a name of its own (or write agent: reviewer to run that role)',
        ".agent-team/workflows/broken.yaml:8: steps[0].steps[0].prompt: {verdict} is produced by steps[1], which this step cannot see: a step sees what earlier steps wrote and, inside a loop, what the loop's own steps wrote in the previous round",
        '',
      ].join('\n'),
    );
    expect(world.server.requests).toHaveLength(0);
  });
});
