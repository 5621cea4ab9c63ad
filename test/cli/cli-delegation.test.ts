/**
 * The CLI end to end, over the real SDKs against the mock provider server, for both providers: the
 * coordinator starts a researcher in the background and a reviewer in the foreground, reads the
 * background result with TaskOutput, and answers; Ctrl-C mid-run stops everything.
 */
import { describe, expect, it } from 'vitest';
import { type MockProtocol, type RecordedRequest, hangingStream, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { type CliEvent, agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'parser.ts': 'export function parse(text: string) {\n  return JSON.parse(text);\n}\n' });

/** The text of the latest tool result the coordinator received, to find the task ids it was given. */
function lastToolResult(request: RecordedRequest): string {
  return request.lastMessageText;
}

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run (%s)', (protocol) => {
  it('delegates to a background researcher and a foreground reviewer, reads the background result and answers', async () => {
    let researcherId = '';
    world.server.respondWith((request) => {
      const agent = agentOf(request);
      if (agent === 'researcher') return textTurn('Dates are parsed in ', 'parser.ts:2 with JSON.parse.');
      if (agent === 'reviewer') return textTurn('[medium] parser.ts:2 — JSON.parse throws on bad input; no error handling.');
      if (agent !== 'coordinator') throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
      switch (priorTurns(request)) {
        case 0:
          return toolCallTurn([
            {
              name: 'Agent',
              input: {
                subagent_type: 'researcher',
                description: 'Find date parsing',
                prompt: 'Where are dates parsed? Answer with file:line.',
                run_in_background: true,
              },
            },
          ]);
        case 1:
          researcherId = /(?:[Tt]ask |Started )(t\d+)/.exec(lastToolResult(request))?.[1] ?? 'missing';
          return toolCallTurn([
            {
              name: 'Agent',
              input: { subagent_type: 'reviewer', description: 'Review the parser', prompt: 'Review parser.ts for error handling.' },
            },
          ]);
        case 2:
          return toolCallTurn([{ name: 'TaskOutput', input: { task_id: researcherId } }]);
        default:
          return textTurn('Summary: parsing lives in parser.ts:2 and lacks error handling.');
      }
    });

    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const run = startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, 'Review how we parse dates'],
      provider.env,
    );
    const { code, stdout, stderr } = await run.exited;
    expect(stderr).not.toMatch(/error/i);
    expect(code).toBe(0);

    const events = parseEvents(stdout);
    const starts = events.filter((event) => event.type === 'task-start');
    expect(starts.map((event) => [event.role, event.parentId === null ? null : 'child', event.background])).toEqual([
      ['coordinator', null, false],
      ['researcher', 'child', true],
      ['reviewer', 'child', false],
    ]);
    const rootId = starts[0].taskId;
    expect(starts.slice(1).every((event) => event.parentId === rootId)).toBe(true);
    expect(researcherId).toBe(starts[1].taskId);

    const ends = new Map(events.filter((event) => event.type === 'task-end').map((event) => [event.taskId, event]));
    expect([...ends.values()].map((event) => event.status)).toEqual(['completed', 'completed', 'completed']);
    expect(ends.get(starts[1].taskId)?.output).toBe('Dates are parsed in parser.ts:2 with JSON.parse.');
    expect((ends.get(rootId)?.usage as { inputTokens: number }).inputTokens).toBeGreaterThan(0);

    // The coordinator read the researcher's answer through TaskOutput, not through a leaked transcript.
    const coordinatorRequests = world.server.requests.filter((request) => agentOf(request) === 'coordinator');
    expect(coordinatorRequests).toHaveLength(4);
    // The last user message carries the tool result, plus the researcher's end notice if it came first.
    expect(JSON.stringify(coordinatorRequests[2].body)).toContain('[medium] parser.ts:2');
    expect(coordinatorRequests[3].lastMessageText).toContain('Dates are parsed in parser.ts:2');
    expect(coordinatorRequests[3].lastMessageText).toContain(`Task ${researcherId} (researcher: "Find date parsing") completed.`);
    expect(coordinatorRequests[0].toolNames).toEqual(expect.arrayContaining(['Agent', 'TaskOutput', 'TaskStop', 'Read', 'Glob', 'Grep']));
    expect(coordinatorRequests[0].toolNames).not.toContain('Edit');

    const runEnd = events.at(-1) as CliEvent;
    expect(runEnd).toMatchObject({
      type: 'run-end',
      status: 'completed',
      output: 'Summary: parsing lives in parser.ts:2 and lacks error handling.',
    });
    const usage = runEnd.usage as { inputTokens: number; outputTokens: number };
    const summed = [...ends.values()].reduce((total, event) => total + (event.usage as { inputTokens: number }).inputTokens, 0);
    expect(usage.inputTokens).toBe(summed);
  });

  it('stops every task on SIGINT, closes the open requests and exits 130', async () => {
    world.server.respondWith((request) => {
      const agent = agentOf(request);
      if (agent === 'researcher' || agent === 'reviewer') return hangingStream({ text: [`${agent} is reading…`] });
      if (priorTurns(request) === 0) {
        return toolCallTurn([
          {
            name: 'Agent',
            input: {
              subagent_type: 'researcher',
              description: 'Find date parsing',
              prompt: 'Where are dates parsed?',
              run_in_background: true,
            },
          },
          { name: 'Agent', input: { subagent_type: 'reviewer', description: 'Review the parser', prompt: 'Review parser.ts.' } },
        ]);
      }
      throw new Error('the coordinator should not get another turn');
    });

    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const run = startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, 'Review how we parse dates'],
      provider.env,
    );
    await world.server.waitForRequest(2);
    const subagentRequests = world.server.requests.filter((request) => agentOf(request) !== 'coordinator').map((request) => request.index);
    expect(subagentRequests).toHaveLength(2);
    // Both subagents have streamed text: their partial output must survive the stop.
    await run.waitForEvent((event) => event.type === 'tool-call' && event.toolName === 'Agent');
    run.child.kill('SIGINT');

    const { code, stdout } = await run.exited;
    expect(code).toBe(130);
    await Promise.all(subagentRequests.map((index) => world.server.waitForClientClose(index)));
    expect(world.server.closedRequests).toBeGreaterThanOrEqual(2);

    const events = parseEvents(stdout);
    const ends = events.filter((event) => event.type === 'task-end');
    expect(ends).toHaveLength(3);
    expect(ends.every((event) => event.status === 'stopped')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'stopped' });
  });
});

describe('agent-team run: configuration errors', () => {
  it('exits 2 naming the environment variable and --base-url when no key is set', async () => {
    const run = startCli(world.cliPath, ['run', '--provider', 'openai', '--workspace', world.workspace, 'do something'], {});
    const { code, stderr } = await run.exited;
    expect(code).toBe(2);
    expect(stderr).toContain('OPENAI_API_KEY');
    expect(stderr).toContain('--base-url');
  });

  it('exits 2 for --provider vscode-lm, saying it works only inside VS Code', async () => {
    const { code, stderr } = await startCli(world.cliPath, ['run', '--provider', 'vscode-lm', '--workspace', world.workspace, 'x'], {})
      .exited;
    expect(code).toBe(2);
    expect(stderr).toContain('works only inside VS Code');
  });

  it('exits 2 for an unknown option, with the usage', async () => {
    const { code, stderr } = await startCli(world.cliPath, ['run', '--frobnicate', 'x'], {}).exited;
    expect(code).toBe(2);
    expect(stderr).toContain('unknown option --frobnicate');
    expect(stderr).toContain('Usage:');
  });

  it('exits 2 for an unknown --agent role, listing the known ones', async () => {
    const run = startCli(world.cliPath, ['run', '--agent', 'nobody', '--workspace', world.workspace, 'x'], { ANTHROPIC_API_KEY: 'k' });
    const { code, stderr } = await run.exited;
    expect(code).toBe(2);
    expect(stderr).toMatch(/Unknown role "nobody".*researcher/);
  });
});
