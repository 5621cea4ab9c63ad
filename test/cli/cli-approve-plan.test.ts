/**
 * `--approve-plan` through the CLI, over the real SDKs and the mock provider: the coordinator's plan (its
 * todo list, or the subagents it would start) is put on stderr and answered on stdin before any subagent
 * starts; changes go back to the coordinator, which revises and asks again; stop ends the run with nothing
 * started; with nobody to answer, the run fails saying how to answer. The planner's plan (`--plan`) too.
 */
import { describe, expect, it } from 'vitest';
import { type MockProtocol, type RecordedRequest, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'parser.ts': 'export function parse(text: string) {\n  return JSON.parse(text);\n}\n' });

const plan = [{ content: 'Find where dates are parsed', status: 'pending', activeForm: 'Finding where dates are parsed' }];
const revisedPlan = [...plan, { content: 'Check the tests of the parser', status: 'pending', activeForm: 'Checking the tests' }];
const delegation = { subagent_type: 'researcher', description: 'Find date parsing', prompt: 'Where are dates parsed?' };

/** Writes a plan, delegates; told of changes, writes the revised plan and delegates again; then answers with what it was told. */
function revisingCoordinator(request: RecordedRequest) {
  if (agentOf(request) === 'researcher') return textTurn('parser.ts:2');
  const told = request.lastMessageText;
  if (priorTurns(request) === 0) return toolCallTurn([{ name: 'TodoWrite', input: { todos: plan } }]);
  if (told.startsWith('Todo list updated')) return toolCallTurn([{ name: 'Agent', input: delegation }]);
  if (told.includes('asks for changes')) return toolCallTurn([{ name: 'TodoWrite', input: { todos: revisedPlan } }], `Revising: ${told}`);
  return textTurn(`Done: ${told}`);
}

function args(protocol: MockProtocol, ...more: string[]): { args: string[]; env: Record<string, string> } {
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  return { args: ['run', '--json', '--approve-plan', '--workspace', world.workspace, ...provider.args, ...more], env: provider.env };
}

const researcherStarted = (stdout: string) =>
  parseEvents(stdout).some((event) => event.type === 'task-start' && event.role === 'researcher');

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run --approve-plan (%s)', (protocol) => {
  it('holds the subagent until the plan is approved; changes reach the coordinator, which revises and asks again', async () => {
    world.server.respondWith(revisingCoordinator);
    const { args: argv, env } = args(protocol, 'Where are dates parsed?');
    const run = startCli(world.cliPath, argv, env, { stdin: 'pipe' });
    await run.waitForStderr('Your answer (approve, stop, or the changes you want): ');
    expect(run.stderr()).toContain(
      '[t1 coordinator: Where are dates parsed?] asks you to approve its plan:\nApprove this plan before any subagent starts?\n\n[ ] Find where dates are parsed\n',
    );
    expect(researcherStarted(run.stdout())).toBe(false);
    expect(world.server.requests.every((request) => agentOf(request) === 'coordinator')).toBe(true);

    run.child.stdin?.write('Also check the tests of the parser.\n');
    await run.waitForStderr('[ ] Check the tests of the parser');
    expect(researcherStarted(run.stdout())).toBe(false);
    const told = world.server.requests.find((request) => request.lastMessageText.includes('asks for changes'))?.lastMessageText;
    expect(told).toContain('Also check the tests of the parser.');
    expect(told).toContain('No subagent was started');

    run.child.stdin?.write('approve\n');
    const { code, stdout } = await run.exited;
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'task-start').map((event) => event.role)).toEqual(['coordinator', 'researcher']);
    const notices = events.filter((event) => event.type === 'notice').map((event) => String(event.text).split('\n')[0]);
    expect(notices).toEqual([
      'Approve this plan before any subagent starts?',
      'The user asked for changes to the plan: Also check the tests of the parser.',
      'Approve this plan before any subagent starts?',
      'The user approved the plan.',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  });
});

describe('agent-team run --approve-plan: stop, and nobody to answer', () => {
  it('"stop" ends the run stopped, with no subagent started and no request of one', async () => {
    world.server.respondWith(revisingCoordinator);
    const { args: argv, env } = args('anthropic', 'Where are dates parsed?');
    const run = startCli(world.cliPath, argv, env, { stdin: 'pipe' });
    await run.waitForStderr('asks you to approve its plan');
    run.child.stdin?.write('stop\n');
    const { code, stdout } = await run.exited;
    expect(code).toBe(1);
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'task-start').map((event) => event.role)).toEqual(['coordinator']);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'stopped', stopReason: { kind: 'user' } });
    expect(world.server.requests.map(agentOf)).toEqual(['coordinator', 'coordinator']);
  });

  it('a coordinator that delegates before writing a plan is held too: the plan shown is the subagents it would start', async () => {
    world.server.respondWith((request) =>
      agentOf(request) === 'researcher'
        ? textTurn('parser.ts:2')
        : priorTurns(request) === 0
          ? toolCallTurn([{ name: 'Agent', input: delegation }])
          : textTurn('Done.'),
    );
    const { args: argv, env } = args('openai', 'Where are dates parsed?');
    const run = startCli(world.cliPath, argv, env, { stdin: 'pipe' });
    await run.waitForStderr('Your answer (approve');
    expect(run.stderr()).toContain(
      '(No todo list was written.) The subagents it would start now:\n- researcher — Find date parsing: Where are dates parsed?',
    );
    expect(researcherStarted(run.stdout())).toBe(false);
    run.child.stdin?.write('n\n');
    const { stdout } = await run.exited;
    expect(researcherStarted(stdout)).toBe(false);
  });

  it('with no stdin the run fails at the first delegation, saying how to answer, and starts nothing', async () => {
    world.server.respondWith(revisingCoordinator);
    const { args: argv, env } = args('anthropic', 'Where are dates parsed?');
    const { code, stdout } = await startCli(world.cliPath, argv, env).exited;
    expect(code).toBe(1);
    const events = parseEvents(stdout);
    expect(researcherStarted(stdout)).toBe(false);
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'run-end', status: 'failed' });
    expect(String(end?.error)).toContain(
      'Plan approval is on, and nobody answered the plan question (with --approve-plan the answer is read from stdin',
    );
  });
});

describe('agent-team run --approve-plan: flags', () => {
  it('is refused with --workflow: its steps are its plan, and start as it runs', async () => {
    const workflow = await startCli(world.cliPath, ['run', '--approve-plan', '--workflow', 'review', 'x'], {}).exited;
    expect(workflow.code).toBe(2);
    expect(workflow.stderr).toContain('--approve-plan goes with the coordinator or --plan');
  });
});

describe('agent-team run --plan --approve-plan', () => {
  it("shows the planner's plan before any sub-task; changes go to a new planner call; approved, its sub-tasks are the todo list", async () => {
    world.server.respondWith((request) => {
      if (agentOf(request) === 'planner') {
        const revised = request.lastMessageText.includes('Review the tests too');
        return toolCallTurn([
          {
            name: 'SubmitPlan',
            input: {
              type: 'sequential',
              sub_tasks: revised ? ['Review parse in parser.ts', 'Review the tests'] : ['Review parse in parser.ts'],
            },
          },
        ]);
      }
      return textTurn(`Reviewed: ${request.lastMessageText.split('\n')[0]}`);
    });
    const { args: argv, env } = args('anthropic', '--plan', '--max-depth', '1', 'Audit parser.ts');
    const run = startCli(world.cliPath, argv, env, { stdin: 'pipe' });
    await run.waitForStderr('One after another:\n1. Review parse in parser.ts\n(Each sub-task');
    expect(
      parseEvents(run.stdout())
        .filter((event) => event.type === 'task-start')
        .map((event) => event.role),
    ).toEqual(['plan', 'planner']);
    run.child.stdin?.write('Review the tests too.\n');
    await run.waitForStderr('2. Review the tests');
    run.child.stdin?.write('yes\n');
    const { code, stdout } = await run.exited;
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'task-start').map((event) => event.role)).toEqual([
      'plan',
      'planner',
      'planner',
      'plan',
      'researcher',
      'plan',
      'researcher',
    ]);
    const todos = events
      .filter((event) => event.type === 'todo' && event.taskId === events[0].taskId)
      .map((event) => (event.todos as Array<{ status: string }>).map((todo) => todo.status).join(','));
    expect(todos).toEqual(['pending,pending', 'in_progress,pending', 'completed,pending', 'completed,in_progress', 'completed,completed']);
  });
});
