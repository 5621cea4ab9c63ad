/** The recursive planner through the CLI (`run --plan`), over the real SDKs and the mock provider. */
import { describe, expect, it } from 'vitest';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'codec.ts': 'export const encode = JSON.stringify;\nexport const decode = JSON.parse;\n' });

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run --plan (%s)', (protocol) => {
  it('plans parallel sub-tasks, runs them, synthesizes, and reports every step as a task', async () => {
    world.server.respondWith((request) => {
      switch (agentOf(request)) {
        case 'planner':
          return toolCallTurn([
            {
              name: 'SubmitPlan',
              input: {
                type: 'parallel',
                sub_tasks: ['Review encode in codec.ts', { task: 'Review decode in codec.ts', role: 'reviewer' }],
              },
            },
          ]);
        case 'researcher':
          return textTurn('encode is JSON.stringify.');
        case 'reviewer':
          return textTurn('decode throws on bad input.');
        case 'synthesizer':
          return request.lastMessageText.includes('encode is JSON.stringify.') &&
            request.lastMessageText.includes('decode throws on bad input.')
            ? textTurn('codec.ts: encode is fine; decode throws on bad input.')
            : textTurn('The synthesizer did not see both results.');
        default:
          throw new Error(`unexpected agent: ${request.system.slice(0, 60)}`);
      }
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
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
        '1',
        '--max-subtasks',
        '2',
        'Audit codec.ts',
      ],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'task-start').map((event) => `${event.role}: ${event.description}`)).toEqual([
      'plan: Audit codec.ts',
      'planner: Plan: Audit codec.ts',
      'plan: Review encode in codec.ts',
      'plan: Review decode in codec.ts',
      'researcher: Review encode in codec.ts',
      'reviewer: Review decode in codec.ts',
      'synthesizer: Combine: Audit codec.ts',
    ]);
    const plannerRequest = world.server.requests.find((request) => agentOf(request) === 'planner');
    expect(plannerRequest?.toolNames).toEqual(['SubmitPlan']);
    expect(plannerRequest?.system).toContain('At most 2 sub-tasks');
    expect(events.at(-1)).toMatchObject({
      type: 'run-end',
      status: 'completed',
      output: 'codec.ts: encode is fine; decode throws on bad input.',
    });
  });
});

describe('agent-team run --plan: flags', () => {
  it('--max-subtasks is checked', async () => {
    const { code, stderr } = await startCli(world.cliPath, ['run', '--plan', '--max-subtasks', '0', 'x'], {}).exited;
    expect(code).toBe(2);
    expect(stderr).toContain('--max-subtasks must be a whole number from 1 to 20, not "0"');
  });
});
