/**
 * `agent-team mcp --approve-plan` answered by the official MCP SDK's client: the run's plan is put to the
 * client as an elicitation while the `delegate` call waits, and no subagent starts before the answer;
 * accept with changes reaches the coordinator, accept with "approve" lets the run finish, decline stops it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type RecordedRequest, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, priorTurns } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'parser.ts': 'export const parse = (text: string) => new Date(text);\n' });
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
});

const plan = [{ content: 'Find the parser', status: 'pending', activeForm: 'Finding the parser' }];

function coordinator(request: RecordedRequest) {
  if (agentOf(request) === 'researcher') return textTurn('parser.ts:1');
  const told = request.lastMessageText;
  if (priorTurns(request) === 0) return toolCallTurn([{ name: 'TodoWrite', input: { todos: plan } }]);
  if (told.startsWith('Todo list updated'))
    return toolCallTurn([
      { name: 'Agent', input: { subagent_type: 'researcher', description: 'Find the parser', prompt: 'Where is the parser?' } },
    ]);
  if (told.includes('asks for changes'))
    return toolCallTurn([
      { name: 'TodoWrite', input: { todos: [...plan, { content: 'Read its tests', status: 'pending', activeForm: 'Reading its tests' }] } },
    ]);
  return textTurn('The parser is in parser.ts:1.');
}

/** A client that answers each elicitation with the next of `answers`, noting what it was asked and whether a subagent had started. */
async function connect(answers: ElicitResult[], asked: Array<{ message: string; researcherBefore: boolean }>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      world.cliPath,
      'mcp',
      '--approve-plan',
      '--workspace',
      world.workspace,
      '--provider',
      'anthropic',
      '--base-url',
      world.server.baseUrl,
    ],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ANTHROPIC_API_KEY: 'test-key' },
    stderr: 'pipe',
  });
  client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push({
      message: String(request.params.message),
      researcherBefore: world.server.requests.some((recorded) => agentOf(recorded) === 'researcher'),
    });
    return answers.shift() ?? { action: 'cancel' };
  });
  await client.connect(transport);
  return client;
}

const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content ?? []).map((part) => part.text).join('\n');
const delegation = { subagent_type: 'coordinator', description: 'Find the parser', prompt: 'Where is the parser?' };

describe('agent-team mcp --approve-plan', () => {
  it('asks the client to approve the plan (an elicitation) before any subagent starts; changes reach the coordinator', async () => {
    world.server.respondWith(coordinator);
    const asked: Array<{ message: string; researcherBefore: boolean }> = [];
    const mcp = await connect(
      [
        { action: 'accept', content: { answer: 'Read its tests too.' } },
        { action: 'accept', content: { answer: 'approve' } },
      ],
      asked,
    );
    const result = await mcp.callTool({ name: 'delegate', arguments: delegation });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('The parser is in parser.ts:1.');
    expect(asked.map((question) => question.researcherBefore)).toEqual([false, false]);
    expect(asked[0].message).toContain('Approve this plan before any subagent starts?\n\n[ ] Find the parser');
    expect(asked[1].message).toContain('[ ] Read its tests');
    expect(world.server.requests.some((request) => request.lastMessageText.includes('asks for changes:\nRead its tests too.'))).toBe(true);
  });

  it('a declined plan stops the run with no subagent started', async () => {
    world.server.respondWith(coordinator);
    const mcp = await connect([{ action: 'decline' }], []);
    const result = await mcp.callTool({ name: 'delegate', arguments: delegation });
    expect(textOf(result)).toContain('stopped');
    expect(world.server.requests.some((request) => agentOf(request) === 'researcher')).toBe(false);
  });
});
