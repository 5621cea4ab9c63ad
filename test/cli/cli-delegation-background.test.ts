/**
 * No result lost, through the CLI against the mock provider (both SDKs): the coordinator asks a
 * researcher, which starts a helper in the background and answers; the helper starts a grand-helper in
 * the background and answers; the grand-helper finishes last. Each subagent waits for its background
 * task and updates its answer, so the grand-helper's result reaches the run's final answer (`run-end`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { delayed, type MockProtocol, type RecordedRequest, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { type CliEvent, agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'parser.ts': 'export function parse(text: string) {\n  return JSON.parse(text);\n}\n' });

async function writeRole(name: string, extra = ''): Promise<void> {
  const directory = path.join(world.workspace, '.agent-team', 'agents');
  await mkdir(directory, { recursive: true });
  await writeFile(
    path.join(directory, `${name}.md`),
    `---\nname: ${name}\ndescription: The ${name}.\ntools: [Read, Glob, Grep, Agent]\n${extra}---\nYou are the ${name}. Do your part.\n`,
  );
}

function roleOf(request: RecordedRequest): string {
  const named = /^You are the (helper|grandhelper|scout)\./.exec(request.system);
  return named ? named[1]! : agentOf(request);
}

/** Resolves once `count` first answers have been given (the grand-helper's answer waits for it). */
function firstAnswers(count: number) {
  let release: () => void = () => undefined;
  const given = new Promise<void>((resolve) => (release = resolve));
  let answers = 0;
  return {
    given,
    answer(text: string) {
      if (++answers === count) release();
      return textTurn(text);
    },
  };
}

const background = (role: string, prompt: string) =>
  toolCallTurn([{ name: 'Agent', input: { subagent_type: role, description: `${role} work`, prompt, run_in_background: true } }]);

/** The helper starts the grand-helper in the background, answers, then updates its answer with the grand result; the grand-helper answers once both first answers are given. */
function helperTurn(role: string, turn: number, heard: string, first: ReturnType<typeof firstAnswers>) {
  if (role === 'grandhelper') return delayed(textTurn('Grand result: 42.'), first.given);
  if (turn === 0) return background('grandhelper', 'Dig deeper.');
  if (turn === 1) return first.answer('Helper first answer.');
  return textTurn(`Helper updated: ${/Grand result: \d+\./.exec(heard)?.[0] ?? 'nothing'}`);
}

/** Runs `agent-team run --json` to the end; it must exit 0 with nothing on stderr that reads as an error. */
async function explainTheParser(protocol: MockProtocol) {
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  const { code, stdout, stderr } = await startCli(
    world.cliPath,
    ['run', '--json', '--max-depth', '4', '--workspace', world.workspace, ...provider.args, 'Explain the parser'],
    provider.env,
  ).exited;
  expect(stderr).not.toMatch(/error/i);
  expect(code).toBe(0);
  const events = parseEvents(stdout);
  const roles = new Map(events.filter((event) => event.type === 'task-start').map((event) => [event.taskId, event.role]));
  return { events, roles };
}

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run: background results (%s)', (protocol) => {
  it("a grandchild's background result reaches its parent, then the final answer", async () => {
    await writeRole('helper');
    await writeRole('grandhelper');
    // The grand-helper answers only once the helper and the researcher have both given a first answer.
    const first = firstAnswers(2);
    world.server.respondWith((request) => {
      const turn = priorTurns(request);
      const heard = request.lastMessageText;
      switch (roleOf(request)) {
        case 'coordinator':
          return turn === 0
            ? toolCallTurn([
                { name: 'Agent', input: { subagent_type: 'researcher', description: 'Research', prompt: 'Research the parser.' } },
              ])
            : textTurn(`Final: ${/Researcher updated: [^\n]*/.exec(heard)?.[0] ?? 'nothing'}`);
        case 'researcher':
          return turn === 0
            ? background('helper', 'Help with the parser.')
            : turn === 1
              ? first.answer('Researcher first answer.')
              : textTurn(`Researcher updated: ${/Helper updated: [^\n]*/.exec(heard)?.[0] ?? 'nothing'}`);
        case 'helper':
        case 'grandhelper':
          return helperTurn(roleOf(request), turn, heard, first);
        default:
          throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
      }
    });

    const { events, roles } = await explainTheParser(protocol);
    const ends = events.filter((event) => event.type === 'task-end');
    // Each ends after its background child, having updated its answer with the child's result.
    expect(ends.map((event) => [roles.get(event.taskId), event.status])).toEqual([
      ['grandhelper', 'completed'],
      ['helper', 'completed'],
      ['researcher', 'completed'],
      ['coordinator', 'completed'],
    ]);
    expect(ends.map((event) => event.output)).toEqual([
      'Grand result: 42.',
      'Helper updated: Grand result: 42.',
      'Researcher updated: Helper updated: Grand result: 42.',
      'Final: Researcher updated: Helper updated: Grand result: 42.',
    ]);
    const helperFollowUp = world.server.requests.find((request) => roleOf(request) === 'helper' && priorTurns(request) === 2);
    expect(helperFollowUp?.lastMessageText).toContain('completed.\nGrand result: 42.');
    const runEnd = events.at(-1) as CliEvent;
    expect(runEnd).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(runEnd.output).toContain('Grand result: 42.');
  });

  it("a role that hands its background tasks to its parent answers at once; the grandchild's result reaches the coordinator", async () => {
    await writeRole('scout', 'backgroundTasks: hand-to-parent\n');
    await writeRole('helper');
    await writeRole('grandhelper');
    const first = firstAnswers(2);
    world.server.respondWith((request) => {
      const turn = priorTurns(request);
      const heard = request.lastMessageText;
      switch (roleOf(request)) {
        case 'coordinator':
          if (turn === 0)
            return toolCallTurn([{ name: 'Agent', input: { subagent_type: 'scout', description: 'Scout', prompt: 'Scout the parser.' } }]);
          return turn === 1
            ? first.answer(`First: ${heard.includes('handed to the task that started this one') ? 'handed over' : 'nothing handed'}`)
            : textTurn(`Final: ${/Helper updated: [^\n]*/.exec(heard)?.[0] ?? 'nothing'}`);
        case 'scout':
          return turn === 0 ? background('helper', 'Help with the parser.') : textTurn('Scout answer.');
        case 'helper':
        case 'grandhelper':
          return helperTurn(roleOf(request), turn, heard, first);
        default:
          throw new Error(`unexpected agent: ${request.system.slice(0, 80)}`);
      }
    });

    const { events, roles } = await explainTheParser(protocol);
    // The scout ends first, at once; the helper it handed up ends later, and the coordinator after it.
    expect(events.filter((event) => event.type === 'task-end').map((event) => roles.get(event.taskId))).toEqual([
      'scout',
      'grandhelper',
      'helper',
      'coordinator',
    ]);
    expect(world.server.requests.filter((request) => roleOf(request) === 'scout')).toHaveLength(2);
    const scoutResult = world.server.requests.find(
      (request) => roleOf(request) === 'coordinator' && priorTurns(request) === 1,
    )?.lastMessageText;
    expect(scoutResult).toContain('Scout answer.');
    expect(scoutResult).toMatch(/Still running, handed to the task that started this one: t\d+ \(helper: "helper work"\)/);
    const runEnd = events.at(-1) as CliEvent;
    expect(runEnd).toMatchObject({ type: 'run-end', status: 'completed', output: 'Final: Helper updated: Grand result: 42.' });
  });
});
