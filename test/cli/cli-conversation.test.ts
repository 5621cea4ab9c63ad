/** Agents that talk to the user, through the CLI: questions on stderr, answers on stdin, over the real SDKs. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'dates.ts': 'export const parse = (text: string) => new Date(text);\n' });

async function addRole(name: string, mode: 'task' | 'chat'): Promise<void> {
  const directory = path.join(world.workspace, '.agent-team', 'agents');
  await mkdir(directory, { recursive: true });
  await writeFile(
    path.join(directory, `${name}.md`),
    `---\nname: ${name}\ndescription: Talks to the user.\nmode: ${mode}\ntools: [Read]\n---\nYou are ${name}.`,
  );
}

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run with a task-mode agent (%s)', (protocol) => {
  it('prints the question on stderr, reads the answer from stdin, and CompleteTask ends the run with its result', async () => {
    await addRole('clarifier', 'task');
    world.server.respondWith((request) => {
      if (priorTurns(request) === 0) return toolCallTurn([{ name: 'AskUser', input: { question: 'Which timezone should dates use?' } }]);
      return toolCallTurn([{ name: 'CompleteTask', input: { result: `Dates will use what the user said: ${request.lastMessageText}` } }]);
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const run = startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, '--agent', 'clarifier', 'Fix the dates'],
      provider.env,
      { stdin: 'pipe' },
    );
    await run.waitForStderr('Which timezone should dates use?');
    run.child.stdin?.write('UTC, always.\n');
    const { code, stdout, stderr } = await run.exited;
    expect(code).toBe(0);
    expect(stderr).toContain('[t1 clarifier: Fix the dates] asks:\nWhich timezone should dates use?\nYour answer: ');
    expect(parseEvents(stdout).at(-1)).toMatchObject({
      type: 'run-end',
      status: 'completed',
      output: 'Dates will use what the user said: The user answered: UTC, always.',
    });
    expect(world.server.requests).toHaveLength(2);
  });
});

describe('agent-team run: no user available', () => {
  it('with no stdin, AskUser tells the agent that no user is available, and it goes on', async () => {
    await addRole('clarifier', 'task');
    world.server.respondWith((request) => {
      if (priorTurns(request) === 0) return toolCallTurn([{ name: 'AskUser', input: { question: 'Which timezone?' } }]);
      return toolCallTurn([{ name: 'CompleteTask', input: { result: `Assumed UTC (${request.lastMessageText})` } }]);
    });
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, '--agent', 'clarifier', 'Fix the dates'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    expect(parseEvents(stdout).at(-1)).toMatchObject({
      status: 'completed',
      output: 'Assumed UTC (No user is available to answer. Decide for yourself, say in your answer what you assumed, and go on.)',
    });
  });

  it('a chat goes on with each line and ends with an empty line', async () => {
    await addRole('writer', 'chat');
    world.server.respondWith((request) =>
      textTurn(`Draft ${priorTurns(request) + 1}${priorTurns(request) > 0 ? ` after "${request.lastMessageText}"` : ''}`),
    );
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const run = startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, '--agent', 'writer', 'Write the intro'],
      provider.env,
      { stdin: 'pipe' },
    );
    await run.waitForStderr('Draft 1');
    run.child.stdin?.write('Shorter, please.\n');
    await run.waitForStderr('Draft 2 after "Shorter, please."');
    run.child.stdin?.write('\n');
    const { code, stdout } = await run.exited;
    expect(code).toBe(0);
    expect(parseEvents(stdout).at(-1)).toMatchObject({ status: 'completed', output: 'Draft 2 after "Shorter, please."' });
  });
});

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run --continue (%s)', (protocol) => {
  it('continues a finished run in a later process, with the whole conversation, as a follow-up under its root', async () => {
    world.server.respondWith((request) => {
      if (priorTurns(request) === 0) return textTurn('The parser is in dates.ts:1.');
      return textTurn(`Follow-up answer; I remember: ${JSON.stringify(request.body).includes('The parser is in dates.ts:1.')}`);
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const base = ['run', '--json', '--workspace', world.workspace, ...provider.args];
    const first = await startCli(world.cliPath, [...base, 'Where is the parser?'], provider.env).exited;
    expect(first.code).toBe(0);
    const rootId = parseEvents(first.stdout)[0].taskId as string;

    const second = await startCli(world.cliPath, [...base, '--continue', rootId, 'Does it handle timezones?'], provider.env).exited;
    expect(second.code).toBe(0);
    const events = parseEvents(second.stdout);
    expect(events[0]).toMatchObject({
      type: 'task-start',
      parentId: rootId,
      role: 'coordinator',
      description: 'Follow-up: Does it handle timezones?',
    });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Follow-up answer; I remember: true' });
    const followUpRequest = world.server.requests[1];
    expect(followUpRequest.lastMessageText).toBe('Does it handle timezones?');
    expect(priorTurns(followUpRequest)).toBe(1);
  });
});

describe('agent-team run --continue: refusals', () => {
  it('an unknown run and a run whose conversation is gone are usage errors (exit 2) that say why', async () => {
    world.server.respondWith(() => textTurn('Answer.'));
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const base = ['run', '--workspace', world.workspace, ...provider.args];
    const unknown = await startCli(world.cliPath, [...base, '--continue', 't42', 'More'], provider.env).exited;
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no run t42 in the history');
    const first = await startCli(world.cliPath, [...base, '--json', 'Hello'], provider.env).exited;
    const rootId = parseEvents(first.stdout)[0].taskId as string;
    // The run's file without the conversation kept for follow-ups (a hand edit, or a record over the size cap).
    const runFile = path.join(world.workspace, '.agent-team', 'runs', `${rootId}.jsonl`);
    const kept = (await readFile(runFile, 'utf8')).split('\n').filter((line) => !line.startsWith('{"type":"kept-conversation"'));
    await writeFile(runFile, kept.join('\n'));
    // Edited, the run is foreign: refused as such, and with --force for what it lacks.
    const foreign = await startCli(world.cliPath, [...base, '--continue', rootId, 'More'], provider.env).exited;
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain(`Run ${rootId} is foreign`);
    const gone = await startCli(world.cliPath, [...base, '--continue', rootId, '--force', 'More'], provider.env).exited;
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain(`The conversation of run ${rootId} is no longer kept`);
    const both = await startCli(world.cliPath, [...base, '--continue', rootId, '--agent', 'researcher', 'More'], provider.env).exited;
    expect(both.stderr).toContain('--agent and --continue cannot be used together');
  });

  it("keeps the history out of git and out of the agents' reach", async () => {
    world.server.respondWith((request) =>
      priorTurns(request) === 0
        ? toolCallTurn([{ name: 'Read', input: { file_path: '.agent-team/runs/index.jsonl' } }])
        : textTurn(request.lastMessageText),
    );
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const { stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--workspace', world.workspace, ...provider.args, '--agent', 'researcher', 'Read the history'],
      provider.env,
    ).exited;
    expect(String(parseEvents(stdout).at(-1)?.output)).toMatch(/may hold secrets/);
    expect(await readFile(path.join(world.workspace, '.agent-team', 'runs', '.gitignore'), 'utf8')).toContain('*');
  });
});
