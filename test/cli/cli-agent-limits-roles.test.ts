/**
 * A role file's limits and result shape through the real CLI bundle, over the real SDKs and the mock
 * provider: `maxTokens` stops only the role's subtree (the coordinator goes on), `outputSchema` hands the
 * parent JSON (after one repair turn) or fails the task, `inputSchema` refuses a prompt before the task
 * starts, and `permissionMode: plan` leaves a role only the tools that read.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MockProtocol, type RecordedRequest, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { type CliEvent, agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';
import { useMcpClient } from './mcp-client.js';

const world = useCliWorld({ 'parser.ts': 'export function parse(text: string) {\n  return JSON.parse(text);\n}\n' });
const mcp = useMcpClient(world);

async function addRole(folder: '.agent-team/agents' | '.claude/agents', name: string, frontMatter: string): Promise<void> {
  const directory = path.join(world.workspace, ...folder.split('/'));
  await mkdir(directory, { recursive: true });
  await writeFile(
    path.join(directory, `${name}.md`),
    `---\nname: ${name}\ndescription: The ${name}.\n${frontMatter.trim()}\n---\nYou are the ${name}.`,
  );
}

const isRole = (request: RecordedRequest, name: string) => request.system.startsWith(`You are the ${name}.`);

function runCli(protocol: MockProtocol, args: string[]) {
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  return startCli(world.cliPath, ['run', '--json', '--workspace', world.workspace, ...provider.args, ...args], provider.env).exited;
}

/** The `task-end` of the (one) task of `role`, found through its `task-start`. */
function taskEnd(events: CliEvent[], role: string): CliEvent {
  const start = events.find((event) => event.type === 'task-start' && event.role === role);
  const end = events.find((event) => event.type === 'task-end' && event.taskId === start?.taskId);
  if (!end) throw new Error(`no task-end for ${role}`);
  return end;
}

const extractorSchema =
  'outputSchema:\n  type: object\n  properties:\n    files: {type: array, items: {type: string}}\n  required: [files]\n  additionalProperties: false';

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run: role limits and results (%s)', (protocol) => {
  it("a role's maxTokens stops only its subtree: the role and its subagent stop for its budget, the coordinator gets that and completes", async () => {
    await addRole('.agent-team/agents', 'digger', 'maxTokens: 40\ntools: [Glob, Agent]');
    await addRole('.agent-team/agents', 'shoveler', 'tools: [Glob]');
    world.server.respondWith((request) => {
      // Each turn costs 15 tokens (the mock's usage): the digger's one and its shoveler's two pass 40 together.
      if (isRole(request, 'shoveler')) return toolCallTurn([{ name: 'Glob', input: { pattern: '*.ts' } }]);
      if (isRole(request, 'digger'))
        return toolCallTurn([{ name: 'Agent', input: { subagent_type: 'shoveler', description: 'Shovel', prompt: 'Shovel the files.' } }]);
      if (priorTurns(request) === 0)
        return toolCallTurn([{ name: 'Agent', input: { subagent_type: 'digger', description: 'Dig', prompt: 'Dig through the files.' } }]);
      return textTurn(`Went on after: ${request.lastMessageText.slice(0, 200)}`);
    });
    const { code, stdout } = await runCli(protocol, ['Dig']);
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    const digger = taskEnd(events, 'digger');
    expect(digger).toMatchObject({ status: 'stopped', stopReason: { kind: 'budget' } });
    expect(String((digger.stopReason as { detail: string }).detail)).toMatch(
      /^task t2 and its subtasks used 45 tokens, over the budget of 40$/,
    );
    expect(taskEnd(events, 'shoveler')).toMatchObject({ status: 'stopped', stopReason: { kind: 'budget' } });
    expect(world.server.requests.filter((request) => isRole(request, 'digger'))).toHaveLength(1);
    expect(world.server.requests.filter((request) => isRole(request, 'shoveler'))).toHaveLength(2);
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(String(end.output)).toContain('budget exceeded: task t2 and its subtasks used 45 tokens');
  });

  it('an outputSchema role is sent back once with what is wrong, then its parent gets the JSON as the result', async () => {
    await addRole('.agent-team/agents', 'extractor', `${extractorSchema}\ntools: [Read]`);
    world.server.respondWith((request) => {
      if (isRole(request, 'extractor'))
        return priorTurns(request) === 0
          ? textTurn('The parser lives in parser.ts.')
          : textTurn('Here it is:\n```json\n{"files": ["parser.ts"]}\n```');
      if (priorTurns(request) === 0)
        return toolCallTurn([
          { name: 'Agent', input: { subagent_type: 'extractor', description: 'List files', prompt: 'Which files parse?' } },
        ]);
      return textTurn('Done.');
    });
    const { code, stdout } = await runCli(protocol, ['List the parsing files']);
    expect(code).toBe(0);
    const extractorRequests = world.server.requests.filter((request) => isRole(request, 'extractor'));
    expect(extractorRequests).toHaveLength(2);
    expect(extractorRequests[0].system).toContain('"required":["files"]');
    expect(extractorRequests[1].lastMessageText).toContain(
      "Your final answer must end with one JSON value that matches your role's output schema",
    );
    expect(extractorRequests[1].lastMessageText).toContain('the answer does not end with a JSON value');
    const json = JSON.stringify({ files: ['parser.ts'] }, null, 2);
    expect(taskEnd(parseEvents(stdout), 'extractor')).toMatchObject({ status: 'completed', output: json });
    const coordinatorLast = world.server.requests.filter((request) => agentOf(request) === 'coordinator').at(-1)!;
    expect(coordinatorLast.lastMessageText).toContain(json);
    expect(coordinatorLast.lastMessageText).not.toContain('Here it is');
  });
});

describe('agent-team run: role results that fail, prompts refused, plan mode', () => {
  it('an answer still wrong after the repair turn fails the task with the validation error; the coordinator goes on', async () => {
    await addRole('.agent-team/agents', 'extractor', `${extractorSchema}\ntools: [Read]`);
    world.server.respondWith((request) => {
      if (isRole(request, 'extractor')) return textTurn('{"files": "parser.ts", "extra": 1}');
      if (priorTurns(request) === 0)
        return toolCallTurn([
          { name: 'Agent', input: { subagent_type: 'extractor', description: 'List files', prompt: 'Which files parse?' } },
        ]);
      return textTurn('Done without it.');
    });
    const { code, stdout } = await runCli('anthropic', ['List the parsing files']);
    expect(code).toBe(0);
    expect(world.server.requests.filter((request) => isRole(request, 'extractor'))).toHaveLength(2);
    const extractor = taskEnd(parseEvents(stdout), 'extractor');
    expect(extractor).toMatchObject({ status: 'failed' });
    expect(extractor.error).toBe(
      "the answer does not match the role's outputSchema: the value must NOT have additional properties ('extra'); /files must be array",
    );
    expect(parseEvents(stdout).at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Done without it.' });
  });

  it('a prompt that does not match the inputSchema is refused before the task starts, naming the problem', async () => {
    await addRole(
      '.agent-team/agents',
      'booker',
      'inputSchema:\n  type: object\n  properties:\n    city: {type: string}\n  required: [city]\ntools: [Read]',
    );
    world.server.respondWith((request) => {
      if (isRole(request, 'booker')) return textTurn('Booked.');
      if (priorTurns(request) === 0)
        return toolCallTurn([{ name: 'Agent', input: { subagent_type: 'booker', description: 'Book', prompt: '{"town": "Paris"}' } }]);
      if (priorTurns(request) === 1)
        return toolCallTurn([{ name: 'Agent', input: { subagent_type: 'booker', description: 'Book', prompt: '{"city": "Paris"}' } }]);
      return textTurn('Booked in the end.');
    });
    const { code, stdout } = await runCli('openai', ['Book Paris']);
    expect(code).toBe(0);
    const coordinator = world.server.requests.filter((request) => agentOf(request) === 'coordinator');
    expect(coordinator[0].toolNames).toContain('Agent');
    expect(coordinator[1].lastMessageText).toContain('"booker" takes a JSON prompt matching its input schema');
    expect(coordinator[1].lastMessageText).toContain(
      "the prompt does not match the role's inputSchema: the value must have required property 'city'",
    );
    // Only the second, valid prompt started a task.
    expect(parseEvents(stdout).filter((event) => event.type === 'task-start' && event.role === 'booker')).toHaveLength(1);
    expect(world.server.requests.filter((request) => isRole(request, 'booker'))).toHaveLength(1);
  });

  it('permissionMode: plan gives a Claude Code agent only the tools that read, and says what it goes without', async () => {
    await addRole('.claude/agents', 'scout', 'tools: Read, Grep, Edit, Write, Bash\npermissionMode: plan');
    world.server.respondWith(() => textTurn('Looked, changed nothing.'));
    const { code, stdout, stderr } = await (async () => {
      const provider = providerEnvironment('anthropic', world.server.baseUrl);
      return startCli(
        world.cliPath,
        ['run', '--json', '--workspace', world.workspace, ...provider.args, '--agent', 'scout', 'Look'],
        provider.env,
      ).exited;
    })();
    expect(code).toBe(0);
    expect(parseEvents(stdout).at(-1)).toMatchObject({ status: 'completed' });
    expect(world.server.requests[0].toolNames.sort()).toEqual(['Grep', 'Read']);
    expect(stderr).toContain("permissionMode 'plan' makes the role read-only: it goes without Edit, Write, Bash");
  });

  it('agent-team agents shows the permission mode, the token limit, the JSON shapes and the metadata', async () => {
    await addRole(
      '.agent-team/agents',
      'extractor',
      `${extractorSchema}\nmaxTokens: 50000\npermissionMode: plan\nmetadata:\n  owner: platform-team\n  tier: 2`,
    );
    const { code, stdout } = await startCli(world.cliPath, ['agents', '--workspace', world.workspace], {}).exited;
    expect(code).toBe(0);
    expect(stdout).toContain('permission mode: plan (read-only)');
    expect(stdout).toContain('token limit: 50,000 for its task and subtasks');
    expect(stdout).toContain('answers with JSON (outputSchema)');
    expect(stdout).toContain('metadata: owner=platform-team, tier=2');
  });
});

describe("agent-team mcp: a role's JSON answer", () => {
  it('is the first text of the result and its structuredContent; the diffs, if any, come after', async () => {
    await addRole('.agent-team/agents', 'extractor', `${extractorSchema}\ntools: [Read]`);
    world.server.respondWith(() => textTurn('```json\n{"files": ["parser.ts"]}\n```'));
    const client = await mcp.connect();
    const result = await client.callTool({
      name: 'delegate',
      arguments: { subagent_type: 'extractor', description: 'List files', prompt: 'Which files parse?' },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ files: ['parser.ts'] });
    expect((result.content as Array<{ type: string; text: string }>)[0]).toEqual({
      type: 'text',
      text: JSON.stringify({ files: ['parser.ts'] }, null, 2),
    });
  });
});
