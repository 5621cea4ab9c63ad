/**
 * Ancestor context through the CLI (`run --plan`, both SDKs, the mock provider): a nested planner and the
 * leaves below it see the tasks theirs is part of, outermost first, before their own; the root planner
 * sees none; the trace keeps each task's chain.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'parser.ts': 'export const parse = JSON.parse;\n' });

const submit = (type: string, subTasks: string[] = []) => toolCallTurn([{ name: 'SubmitPlan', input: { type, sub_tasks: subTasks } }]);

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run --plan: ancestor tasks (%s)', (protocol) => {
  it("the nested planner and the leaf's requests carry the ancestor chain; the trace keeps it", async () => {
    world.server.respondWith((request) => {
      const heard = request.lastMessageText;
      switch (agentOf(request)) {
        case 'planner':
          if (heard.includes('Plan this task:\n\nRewrite the parser')) return submit('sequential', ['Write the tests']);
          if (heard.includes('Plan this task:\n\nWrite the tests')) return submit('sequential', ['Test the numbers in parser.ts']);
          throw new Error(`unexpected planner request: ${heard.slice(0, 80)}`);
        case 'researcher':
          return textTurn('Numbers tested.');
        default:
          throw new Error(`unexpected agent: ${request.system.slice(0, 60)}`);
      }
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const tracePath = path.join(world.workspace, 'trace.json');
    const { code, stdout } = await startCli(
      world.cliPath,
      [
        'run',
        '--json',
        '--workspace',
        world.workspace,
        ...provider.args,
        '--plan',
        '--max-depth',
        '2',
        '--trace',
        tracePath,
        'Rewrite the parser',
      ],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    expect(parseEvents(stdout).at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Numbers tested.' });

    const planners = world.server.requests.filter((request) => agentOf(request) === 'planner');
    expect(planners).toHaveLength(2);
    expect(planners[0]!.lastMessageText).not.toContain('Ancestor tasks');
    expect(planners[1]!.lastMessageText).toContain('Ancestor tasks (context only; your task is below).');
    expect(planners[1]!.lastMessageText).toContain(
      '<ancestor-tasks>\n1. Rewrite the parser\n</ancestor-tasks>\n\nYour task:\nPlan this task:\n\nWrite the tests',
    );

    const leaf = world.server.requests.find((request) => agentOf(request) === 'researcher');
    expect(leaf?.lastMessageText).toContain(
      '<ancestor-tasks>\n1. Rewrite the parser\n2. Write the tests\n</ancestor-tasks>\n\nYour task:\nTest the numbers in parser.ts',
    );
    // Once, as context in the message: the role's system prompt is untouched.
    expect(leaf?.system).not.toContain('Rewrite the parser');

    const trace = JSON.parse(await readFile(tracePath, 'utf8')) as {
      tasks: Array<{ role: string; prompt: string; ancestorTasks?: string[] }>;
    };
    expect(trace.tasks.find((task) => task.role === 'researcher')).toMatchObject({
      prompt: 'Test the numbers in parser.ts',
      ancestorTasks: ['Rewrite the parser', 'Write the tests'],
    });
  });
});
