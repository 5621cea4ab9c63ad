/** Run Workflow… and Plan and Delegate… in the extension host, over the real OpenAI SDK and the mock provider. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockProviderServer, startMockProviderServer, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let server: MockProviderServer;
let extension: ActivatedExtension;

const review =
  'description: Research, then review.\ntype: sequential\nsteps:\n  - agent: researcher\n    prompt: "Find {input}"\n    output_key: found\n  - agent: reviewer\n    prompt: "Review {found}"\n';
const broken = 'description: Broken.\ntype: loop\nsteps:\n  - agent: reviewer\n    prompt: Again\n';

beforeEach(async () => {
  server = await startMockProviderServer();
  extension = activateExtension({
    files: {
      '.agent-team/workflows/review.yaml': review,
      '.agent-team/workflows/broken.yaml': broken,
      'src/a.ts': 'export const a = 1;\n',
    },
    userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl, 'agentTeam.maxSubtasks': 2 },
  });
});

afterEach(async () => {
  await extension.cleanup();
  await server.close();
});

const finished = () => fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));

describe('Run Workflow…', () => {
  it('offers every workflow (an invalid one with its error as detail), asks for the input, and runs it', async () => {
    server.enqueue(textTurn('Found in src/a.ts:1.'), textTurn('Looks fine.'));
    fake.state.quickPickAnswers.push(({ items }) => {
      expect(
        (items as Array<{ label: string; description?: string; detail?: string }>).map((item) => [
          item.label,
          item.description,
          item.detail,
        ]),
      ).toEqual([
        [
          '$(error) broken',
          'invalid: 1 problem',
          '.agent-team/workflows/broken.yaml:2: type: a loop needs max_iterations (how many rounds at most), e.g. max_iterations: 3',
        ],
        ['$(run-all) review', 'sequential', 'Research, then review.'],
      ]);
      return items[1];
    });
    fake.state.inputBoxAnswers.push(() => 'the constant a');
    const taskId = await extension.execute('agentTeam.runWorkflow');
    expect(taskId).toBe('t1');
    await finished();
    expect(JSON.stringify(server.requests[0].body)).toContain('Find the constant a');
    expect(JSON.stringify(server.requests[1].body)).toContain('Review Found in src/a.ts:1.');
  });

  it('refuses an invalid workflow with its first problem, and runs nothing', async () => {
    const taskId = await extension.execute('agentTeam.runWorkflow', 'broken', 'x');
    expect(taskId).toBeUndefined();
    expect(fake.state.messages.at(-1)?.message).toBe(
      'The workflow "broken" cannot run: .agent-team/workflows/broken.yaml:2: type: a loop needs max_iterations (how many rounds at most), e.g. max_iterations: 3',
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('Plan and Delegate…', () => {
  it('plans with the planner (max sub-tasks from the settings) and runs the plan', async () => {
    server.respondWith((request) => {
      if (request.system.startsWith('You are the planner'))
        return toolCallTurn([{ name: 'SubmitPlan', input: { type: 'llm', sub_tasks: [] } }]);
      return textTurn('Done by one researcher.');
    });
    fake.state.inputBoxAnswers.push((options) => {
      expect(options.title).toBe('Plan and Delegate');
      return 'Audit src/a.ts';
    });
    const taskId = await extension.execute('agentTeam.planAndDelegate');
    expect(taskId).toBe('t1');
    await finished();
    expect(server.requests[0].system).toContain('At most 2 sub-tasks');
    expect(server.requests[0].toolNames).toEqual(['SubmitPlan']);
  });
});
