/**
 * A workspace role with `mcpServers`, through the real CLI bundle: the coordinator delegates to it, its
 * model (the mock provider, over both SDKs) calls the server's tool, the result flows back, and the
 * server is gone when the run ends. `agent-team agents` names the role's servers.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { calculatorRoleFile } from '../support/calculator-role.js';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';
import { processesMarked } from '../commands/bash-support.js';

const world = useCliWorld({ 'notes.md': 'Sum things.\n' });

/** Writes the role; returns the mark its server carries on its command line (the server runs in the sandbox, its own pid namespace). */
async function writeCalculatorRole(): Promise<string> {
  const marker = `calc-${process.pid}-${Date.now()}`;
  await mkdir(path.join(world.workspace, '.agent-team', 'agents'), { recursive: true });
  await writeFile(
    path.join(world.workspace, '.agent-team', 'agents', 'calculator.md'),
    calculatorRoleFile(path.join(world.workspace, 'calc.pid'), 'You add numbers with your calculator.', marker),
  );
  return marker;
}

describe.each(['anthropic', 'openai'] as const)('roles with MCP servers over %s', (protocol) => {
  it('the coordinator delegates; the role calls mcp__calc__add; the sum reaches the answer; the server is gone', async () => {
    const marker = await writeCalculatorRole();
    world.server.respondWith((request) => {
      if (request.system.startsWith('You add numbers')) {
        expect(request.toolNames).toEqual(expect.arrayContaining(['mcp__calc__add', 'mcp__calc__echo']));
        return priorTurns(request) === 0
          ? toolCallTurn([{ name: 'mcp__calc__add', input: { a: 20, b: 22 } }])
          : textTurn(`The calculator says ${request.lastMessageText}.`);
      }
      if (agentOf(request) !== 'coordinator') throw new Error(`unexpected agent: ${request.system.slice(0, 60)}`);
      expect(request.toolNames.some((name) => name.startsWith('mcp__'))).toBe(false);
      return priorTurns(request) === 0
        ? toolCallTurn([
            { name: 'Agent', input: { subagent_type: 'calculator', description: 'Add the numbers', prompt: 'What is 20 + 22?' } },
          ])
        : textTurn(`Answer: ${request.lastMessageText}`);
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const { code, stdout, stderr } = await startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, '--trust', ...provider.args, 'Add 20 and 22'],
      provider.env,
    ).exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(parseEvents(stdout).at(-1)).toMatchObject({
      type: 'run-end',
      status: 'completed',
      output: expect.stringContaining('The calculator says 42.'),
    });
    expect(processesMarked(marker)).toEqual([]);
  });

  it('the server runs in the sandbox over a copy of the workspace: its write lands in the copy, the agent is told it is discarded, the file is unchanged', async () => {
    await writeCalculatorRole();
    world.server.respondWith((request) => {
      if (request.system.startsWith('You add numbers')) {
        return priorTurns(request) === 0
          ? toolCallTurn([{ name: 'mcp__calc__write', input: { path: 'notes.md', text: 'overwritten' } }])
          : textTurn(`Writing said: ${request.lastMessageText}`);
      }
      return priorTurns(request) === 0
        ? toolCallTurn([
            { name: 'Agent', input: { subagent_type: 'calculator', description: 'Write notes', prompt: 'Overwrite notes.md' } },
          ])
        : textTurn(`Answer: ${request.lastMessageText}`);
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, '--trust', ...provider.args, 'Overwrite the notes'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    expect(String(events.at(-1)?.output)).toContain('Writing said: wrote notes.md');
    const calculator = world.server.requests.find((request) => request.system.startsWith('You add numbers'))!;
    expect(JSON.stringify(calculator.body)).toContain('its writes are discarded: propose file changes with Edit or Write instead');
    expect(await readFile(path.join(world.workspace, 'notes.md'), 'utf8')).toBe('Sum things.\n');
    // Nothing the server wrote became a proposal: the run proposes no change.
    expect(events.filter((event) => event.type === 'change-proposed')).toEqual([]);
  });
});

describe('agent-team agents', () => {
  it('names a role\u2019s MCP servers, and a broken mcpServers entry with its file and line', async () => {
    await writeCalculatorRole();
    await writeFile(
      path.join(world.workspace, '.agent-team', 'agents', 'broken.md'),
      '---\nname: broken\ndescription: Broken.\nmcpServers:\n  files: { args: [x] }\n---\nYou are broken.\n',
    );
    const { stdout, stderr } = await startCli(world.cliPath, ['agents', '--workspace', world.workspace], {}).exited;
    expect(stdout).toMatch(/calculator[^]*MCP servers: calc/);
    expect(stderr).toContain(".agent-team/agents/broken.md:4: error: MCP server 'files': 'command' must be the program to start");
  });
});
