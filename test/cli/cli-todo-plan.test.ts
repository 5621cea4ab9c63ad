/**
 * The plan the user sees, through the CLI over the real SDKs and the mock provider: the coordinator's
 * `TodoWrite` list as `todo` JSON events and terminal lines as it writes it; `--approve-plan` holding
 * every subagent until the user answers on stdin (approve, changes that reach the coordinator, stop).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MockProtocol, type RecordedRequest, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'parser.ts': 'export function parse(text: string) {\n  return JSON.parse(text);\n}\n' });

const firstPlan = [
  { content: 'Find where dates are parsed', status: 'in_progress', activeForm: 'Finding where dates are parsed' },
  { content: 'Summarise the findings', status: 'pending', activeForm: 'Summarising the findings' },
];
const donePlan = firstPlan.map((todo) => ({ ...todo, status: 'completed' }));
const delegation = {
  subagent_type: 'researcher',
  description: 'Find date parsing',
  prompt: 'Where are dates parsed? Answer with file:line.',
};

/** A coordinator that writes its plan, delegates, marks it done and answers. */
function planningCoordinator(request: RecordedRequest) {
  if (agentOf(request) === 'researcher') return textTurn('Dates are parsed in parser.ts:2.');
  switch (priorTurns(request)) {
    case 0:
      return toolCallTurn([{ name: 'TodoWrite', input: { todos: firstPlan } }]);
    case 1:
      return toolCallTurn([{ name: 'Agent', input: delegation }]);
    case 2:
      return toolCallTurn([{ name: 'TodoWrite', input: { todos: donePlan } }]);
    default:
      return textTurn('Dates are parsed in parser.ts:2.');
  }
}

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run: the todo list (%s)', (protocol) => {
  it('--json: a todo event each time the coordinator writes its list, whole, in order with the tasks', async () => {
    world.server.respondWith(planningCoordinator);
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, 'Where are dates parsed?'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    const rootId = events[0].taskId;
    const todos = events.filter((event) => event.type === 'todo');
    expect(todos).toEqual([
      { type: 'todo', taskId: rootId, todos: firstPlan },
      { type: 'todo', taskId: rootId, todos: donePlan },
    ]);
    // Live: the first list is out before the subagent starts, the second after it ended.
    const order = events.map((event) => (event.type === 'todo' ? 'todo' : `${event.type}:${String(event.role ?? event.taskId)}`));
    expect(order.indexOf('todo')).toBeLessThan(order.indexOf('task-start:researcher'));
    expect(order.lastIndexOf('todo')).toBeGreaterThan(events.findIndex((event) => event.type === 'task-end' && event.taskId !== rootId));
    const coordinatorRequest = world.server.requests.find((request) => agentOf(request) === 'coordinator');
    expect(coordinatorRequest?.toolNames).toContain('TodoWrite');
    expect(world.server.requests.find((request) => agentOf(request) === 'researcher')?.toolNames).not.toContain('TodoWrite');
  });
});

describe('agent-team run: the todo list on the terminal', () => {
  it('prints the list whole at each change, the item in progress in its active form; the trace keeps the last list', async () => {
    world.server.respondWith(planningCoordinator);
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const traceFile = path.join(world.workspace, 'trace.md');
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--workspace', world.workspace, '--trace', traceFile, ...provider.args, 'Where are dates parsed?'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    expect(stdout).toContain(
      '[t1 coordinator] todo list (0/2 done):\n  [~] Finding where dates are parsed\n  [ ] Summarise the findings\n',
    );
    expect(stdout).toContain('[t1 coordinator] todo list (2/2 done):\n  [x] Find where dates are parsed\n  [x] Summarise the findings\n');
    expect(stdout.indexOf('(0/2 done)')).toBeLessThan(stdout.indexOf('researcher: Find date parsing'));
    expect(await readFile(traceFile, 'utf8')).toContain(
      '**Todo list**\n\n```text\n[x] Find where dates are parsed\n[x] Summarise the findings\n```',
    );
  });

  it('a malformed list is an error result naming what is wrong, and changes nothing', async () => {
    world.server.respondWith((request) => {
      if (priorTurns(request) === 0)
        return toolCallTurn([{ name: 'TodoWrite', input: { todos: [{ content: 'Read', status: 'done', activeForm: 'Reading' }] } }]);
      if (priorTurns(request) === 1)
        return toolCallTurn([
          { name: 'TodoWrite', input: { todos: [{ content: '  ', status: 'pending', activeForm: 'Reading', id: '1' }] } },
        ]);
      return textTurn(`Told: ${request.lastMessageText}`);
    });
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, 'Plan it'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'todo')).toEqual([]);
    expect(events.filter((event) => event.type === 'tool-result').map((event) => event.isError)).toEqual([true, true]);
    const [second, third] = world.server.requests.slice(1).map((request) => request.lastMessageText);
    expect(second).toContain('todos[0].status: Invalid option: expected one of "pending"|"in_progress"|"completed"');
    expect(third).toContain('content must not be empty');
    expect(third).toMatch(/Unrecognized key: "id"/);
  });
});
