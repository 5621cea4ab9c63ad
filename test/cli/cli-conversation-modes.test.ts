/**
 * Modes as seed 001 defines them, through the CLI over the real SDKs: two task-mode agents started in one
 * coordinator turn never question the user at once (the second is "queued for you" until the first is
 * answered), they are leaves (no delegation tools), and a task's plain answer is sent back once.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/mock-provider/recorded-request.js';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'dates.ts': 'export const parse = (text: string) => new Date(text);\n' });

/** A task-mode role that names no tools: it would delegate, were task agents not leaves. */
async function addTaskRole(name: string): Promise<void> {
  const directory = path.join(world.workspace, '.agent-team', 'agents');
  await mkdir(directory, { recursive: true });
  await writeFile(
    path.join(directory, `${name}.md`),
    `---\nname: ${name}\ndescription: Asks the user about ${name}.\nmode: task\n---\nYou are ${name}.`,
  );
}

const questions: Record<string, string> = { dates: 'Which timezone should dates use?', names: 'Which prefix should names take?' };

function roleOf(request: RecordedRequest): string {
  return Object.keys(questions).find((name) => request.system.startsWith(`You are ${name}.`)) ?? 'coordinator';
}

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run: two task-mode agents in one coordinator turn (%s)', (protocol) => {
  it('asks their questions one at a time, the second queued for you until the first is answered on stdin', async () => {
    await addTaskRole('dates');
    await addTaskRole('names');
    world.server.respondWith((request) => {
      const role = roleOf(request);
      if (role === 'coordinator') {
        if (priorTurns(request) > 0) return textTurn('Both settled.');
        return toolCallTurn(
          Object.keys(questions).map((name) => ({
            name: 'Agent',
            input: { subagent_type: name, description: `Settle ${name}`, prompt: `Ask about ${name}.` },
          })),
        );
      }
      if (priorTurns(request) === 0) return toolCallTurn([{ name: 'AskUser', input: { question: questions[role] } }]);
      return toolCallTurn([{ name: 'CompleteTask', input: { result: `${role}: ${request.lastMessageText}` } }]);
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const run = startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, 'Settle dates and names'],
      provider.env,
      { stdin: 'pipe' },
    );
    let shown = '';
    run.child.stderr?.on('data', (chunk: string) => (shown += chunk));
    await run.waitForStderr('queued for you');
    await run.waitForStderr('Your answer: ');
    // One question is put; the other waits, said on stderr, and is not asked yet.
    const asked = Object.keys(questions).filter((name) => shown.includes(questions[name]));
    expect(asked).toHaveLength(1);
    const [first] = asked;
    const second = Object.keys(questions).find((name) => name !== first)!;
    expect(shown).toMatch(
      new RegExp(`\\[t\\d ${second}: Settle ${second}\\] is queued for you: its question comes once you have answered the one before`),
    );
    run.child.stdin?.write('First answer.\n');
    await run.waitForStderr(questions[second]);
    run.child.stdin?.write('Second answer.\n');
    const { code, stdout, stderr } = await run.exited;
    expect(code).toBe(0);
    // Never interleaved: the second question comes after the first one's prompt, and only once.
    expect(stderr.indexOf(questions[second])).toBeGreaterThan(stderr.indexOf(questions[first]!));
    expect(stderr.split(questions[second]).length).toBe(2);
    const ends = parseEvents(stdout).filter((event) => event.type === 'task-end');
    expect(ends.map((event) => event.output).sort()).toEqual(
      ['Both settled.', `${first}: The user answered: First answer.`, `${second}: The user answered: Second answer.`].sort(),
    );
    // Task agents are leaves: no delegation tools, though their role names no tools.
    for (const request of world.server.requests.filter((entry) => roleOf(entry) !== 'coordinator')) {
      expect(request.toolNames).toEqual(expect.arrayContaining(['AskUser', 'CompleteTask']));
      expect(request.toolNames.filter((name) => ['Agent', 'TaskOutput', 'TaskStop', 'SendMessage'].includes(name))).toEqual([]);
    }
  });
});

describe('agent-team run: a task agent completes through CompleteTask', () => {
  it('a plain answer is sent back once with a reminder; a second one is taken as the result with a note', async () => {
    await addTaskRole('dates');
    world.server.respondWith((request) =>
      textTurn(priorTurns(request) === 0 ? 'UTC.' : `Still UTC (${request.lastMessageText.slice(0, 60)})`),
    );
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, '--agent', 'dates', 'Decide the timezone'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    expect(world.server.requests).toHaveLength(2);
    expect(world.server.requests[1].lastMessageText).toContain('call CompleteTask with your result');
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'notice').map((event) => event.text)).toEqual([
      expect.stringContaining('a task ends only through CompleteTask'),
      'The agent answered in plain text again instead of calling CompleteTask: its answer was taken as the task’s result.',
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'run-end',
      status: 'completed',
      output: 'Still UTC ([Agent Team notice] You answered without calling a tool, but)',
    });
  });
});
