/** Workflows through the CLI: `agent-team workflows` and `agent-team run --workflow`, over the real SDKs. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'parser.ts': 'export const parse = (text: string) => new Date(text);\n' });

const fix = `description: Find the bug, fix it, review the fix.
type: sequential
steps:
  - agent: researcher
    prompt: "Find where {input} is handled."
    output_key: findings
    description: Find the handler
  - type: loop
    max_iterations: 3
    steps:
      - agent: reviewer
        prompt: "Review these findings: {findings}. Call ExitLoop when they are sound."
        description: Review the findings
  - workflow: summary
`;
const summary =
  'description: Summarize.\ntype: sequential\nsteps:\n  - agent: researcher\n    prompt: "Summarize the work on {input}"\n    description: Summarize\n';

async function writeWorkflows(files: Record<string, string>): Promise<void> {
  const directory = path.join(world.workspace, '.agent-team', 'workflows');
  await mkdir(directory, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(directory, name), text);
}

describe('agent-team workflows', () => {
  it('lists the workflows, reports each problem with file, line and field, and exits 2 when one is invalid', async () => {
    await writeWorkflows({
      'fix.yaml': fix,
      'summary.yaml': summary,
      'broken.yaml': 'description: Broken.\ntype: sequential\nsteps:\n  - agent: reviewer\n    prompt: "Review {review}"\n',
    });
    const { code, stdout, stderr } = await startCli(world.cliPath, ['workflows', '--workspace', world.workspace], {}).exited;
    expect(code).toBe(2);
    expect(stdout).toContain('fix      .agent-team/workflows/fix.yaml · sequential\n         Find the bug, fix it, review the fix.');
    expect(stdout).toContain('broken   .agent-team/workflows/broken.yaml · invalid (1 problem)');
    expect(stderr).toBe('.agent-team/workflows/broken.yaml:5: steps[0].prompt: {review} is not produced by an earlier step\n');
  });

  it('exits 0 when every workflow is sound', async () => {
    await writeWorkflows({ 'fix.yaml': fix, 'summary.yaml': summary });
    const { code, stderr } = await startCli(world.cliPath, ['workflows', '--workspace', world.workspace], {}).exited;
    expect([code, stderr]).toEqual([0, '']);
  });
});

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run --workflow (%s)', (protocol) => {
  it('runs every step as a task, passes state, exits the loop by ExitLoop and answers with the last step', async () => {
    await writeWorkflows({ 'fix.yaml': fix, 'summary.yaml': summary });
    world.server.respondWith((request) => {
      const agent = agentOf(request);
      if (agent === 'researcher' && request.lastMessageText.startsWith('Find where')) return textTurn('Dates are parsed in parser.ts:1.');
      if (agent === 'researcher') return textTurn('Summary: the date parsing was reviewed.');
      if (priorTurns(request) === 0) return toolCallTurn([{ name: 'ExitLoop', input: { reason: 'the findings are sound' } }]);
      return textTurn('The findings are sound.');
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, '--workflow', 'fix', 'date parsing'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    const events = parseEvents(stdout);
    const starts = events.filter((event) => event.type === 'task-start');
    expect(starts.map((event) => `${event.role}: ${event.description}`)).toEqual([
      'workflow: fix',
      'researcher: Find the handler',
      'loop: loop of 1 step',
      'reviewer: Review the findings',
      'workflow: summary',
      'researcher: Summarize',
    ]);
    expect(starts[0].parentId).toBeNull();
    const reviewerRequest = world.server.requests.find((request) => agentOf(request) === 'reviewer');
    expect(reviewerRequest?.lastMessageText).toBe(
      'Review these findings: Dates are parsed in parser.ts:1.. Call ExitLoop when they are sound.',
    );
    expect(reviewerRequest?.toolNames).toContain('ExitLoop');
    expect(events.filter((event) => event.type === 'task-end').every((event) => event.status === 'completed')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Summary: the date parsing was reviewed.' });
  });
});

describe('agent-team run --workflow: stacked proposals', () => {
  it("the reviewer reads the refactorer's unaccepted proposal, and --apply writes both edits in order", async () => {
    await writeWorkflows({
      'fix-review.yaml':
        'description: Fix, then review and touch up.\ntype: sequential\nsteps:\n  - agent: refactorer\n    prompt: "Fix {input}"\n  - agent: tidy\n    prompt: "Review and tidy {input}"\n',
    });
    await mkdir(path.join(world.workspace, '.agent-team', 'agents'), { recursive: true });
    await writeFile(
      path.join(world.workspace, '.agent-team', 'agents', 'tidy.md'),
      '---\nname: tidy\ndescription: Reviews and tidies.\ntools: [Read, Edit]\n---\nYou are a tidy reviewer.',
    );
    world.server.respondWith((request) => {
      if (agentOf(request) === 'refactorer') {
        if (priorTurns(request) === 0)
          return toolCallTurn([
            { name: 'Edit', input: { file_path: 'parser.ts', old_string: 'new Date(text)', new_string: 'safeDate(text)' } },
          ]);
        return textTurn('Fixed.');
      }
      switch (priorTurns(request)) {
        case 0:
          return toolCallTurn([{ name: 'Read', input: { file_path: 'parser.ts' } }]);
        case 1:
          if (!request.lastMessageText.includes('safeDate(text)'))
            return textTurn(`The proposal was not visible: ${request.lastMessageText}`);
          return toolCallTurn([
            { name: 'Edit', input: { file_path: 'parser.ts', old_string: 'export const parse', new_string: 'export const parseDate' } },
          ]);
        default:
          return textTurn('Reviewed and tidied.');
      }
    });
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--apply', '--workspace', world.workspace, ...provider.args, '--workflow', 'fix-review', 'parser.ts'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    expect(parseEvents(stdout).at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Reviewed and tidied.' });
    expect(await readFile(path.join(world.workspace, 'parser.ts'), 'utf8')).toBe(
      'export const parseDate = (text: string) => safeDate(text);\n',
    );
  });
});

describe('agent-team run --workflow: errors', () => {
  it('a missing workflow and an invalid one are usage errors (exit 2) that say why; nothing runs', async () => {
    await writeWorkflows({ 'broken.yaml': 'description: Broken.\ntype: loop\nsteps:\n  - agent: reviewer\n    prompt: Again\n' });
    const env = { ANTHROPIC_API_KEY: 'test-key' };
    const base = ['run', '--workspace', world.workspace, '--provider', 'anthropic', '--base-url', world.server.baseUrl];
    const missing = await startCli(world.cliPath, [...base, '--workflow', 'nowhere', 'x'], env).exited;
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('There is no workflow "nowhere". Workflows: broken.');
    const invalid = await startCli(world.cliPath, [...base, '--workflow', 'broken', 'x'], env).exited;
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain(
      'The workflow "broken" cannot run:\n  .agent-team/workflows/broken.yaml:2: type: a loop needs max_iterations',
    );
    const both = await startCli(world.cliPath, [...base, '--workflow', 'broken', '--agent', 'reviewer', 'x'], env).exited;
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--agent and --workflow cannot be used together');
    const plan = await startCli(world.cliPath, [...base, '--workflow', 'broken', '--plan', 'x'], env).exited;
    expect(plan.stderr).toContain('--workflow and --plan cannot be used together');
    expect(world.server.requests).toHaveLength(0);
  });
});
