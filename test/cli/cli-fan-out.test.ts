/** `agent-team run`: a turn starting more than 8 subagents is refused unless --yes, through the real CLI. */
import { describe, expect, it } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'a.ts': 'export const a = 1;\n' });

function scriptNineResearchers(): void {
  world.server.respondWith((request) => {
    if (agentOf(request) === 'researcher') return textTurn('Looked.');
    if (priorTurns(request) === 0) {
      return toolCallTurn(
        Array.from({ length: 9 }, (_, index) => ({
          name: 'Agent',
          input: { subagent_type: 'researcher', description: `Part ${index + 1}`, prompt: 'Look.', run_in_background: true },
        })),
      );
    }
    return textTurn(`Coordinator read: ${request.lastMessageText.slice(0, 400)}`);
  });
}

describe('agent-team run: wide fan-outs', () => {
  it('refuses 9 subagents in one turn without --yes: none starts, the coordinator is told how to allow it', async () => {
    scriptNineResearchers();
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, 'Look at everything'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'task-start')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', output: expect.stringContaining("needs the user's confirmation") });
    expect(String(events.at(-1)!.output)).toContain('run agent-team with --yes to allow it');
  });

  it('with --yes all 9 start', async () => {
    scriptNineResearchers();
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--yes', '--workspace', world.workspace, ...provider.args, 'Look at everything'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    expect(parseEvents(stdout).filter((event) => event.type === 'task-start' && event.parentId !== null)).toHaveLength(9);
  });
});
