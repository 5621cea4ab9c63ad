/**
 * Catastrophic patterns through the CLI, over both SDKs and the mock provider: a backtracking engine
 * would never finish `*a*a*…*b` against a long file name or `(a+)+$` against a line of many `a`s ending
 * in `!`, and would ignore Ctrl-C meanwhile. Here Glob and Grep answer readably on the JavaScript search
 * (PATH without ripgrep) and over a pending proposal (searched in JavaScript whatever the engine), and
 * SIGINT during such a Grep ends the run with 130.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MockProtocol, hangingStream, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const catastrophicGlob = '*a*a*a*a*a*a*a*a*a*a*a*a*b';
const catastrophicRegex = '(a+)+$';
/** Near the longest name most file systems allow. */
const longName = `${'a'.repeat(240)}b`;
const manyAs = `${'a'.repeat(50_000)}!\n`;

const world = useCliWorld({
  [longName]: 'long\n',
  [longName.slice(0, -1)]: 'no b at the end\n',
  'as.txt': manyAs,
  'ends.txt': 'aaaa\n',
});

/** The CLI's environment with a PATH on which there is no ripgrep: Grep falls back to its JavaScript engine. */
function withoutRipgrep(environment: Record<string, string>): Record<string, string> {
  return { ...environment, PATH: path.join(world.workspace, 'no-such-bin') };
}

describe.each<MockProtocol>(['anthropic', 'openai'])('catastrophic patterns through the CLI (%s)', (protocol) => {
  it("a researcher's Glob and Grep answer readably on the JavaScript search", async () => {
    world.server.respondWith((request) => {
      if (agentOf(request) !== 'researcher') throw new Error(`unexpected agent: ${request.system.slice(0, 60)}`);
      switch (priorTurns(request)) {
        case 0:
          return toolCallTurn([{ name: 'Glob', input: { pattern: catastrophicGlob } }]);
        case 1:
          return toolCallTurn([{ name: 'Grep', input: { pattern: catastrophicRegex } }]);
        default:
          return textTurn('Found them.');
      }
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const args = ['run', '--json', '--agent', 'researcher', '--workspace', world.workspace, ...provider.args, 'Find the files'];
    const { code, stdout } = await startCli(world.cliPath, args, withoutRipgrep(provider.env)).exited;
    expect(code).toBe(0);
    const [, afterGlob, afterGrep] = world.server.requests;
    expect(afterGlob.lastMessageText).toBe(longName);
    expect(afterGrep.lastMessageText).toBe('ends.txt:1: aaaa');
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'tool-result').map((event) => [event.toolName, event.isError])).toEqual([
      ['Glob', false],
      ['Grep', false],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Found them.' });
  });

  it("a refactorer's Grep over its own pending proposal answers readably", async () => {
    world.server.respondWith((request) => {
      if (agentOf(request) !== 'refactorer') throw new Error(`unexpected agent: ${request.system.slice(0, 60)}`);
      switch (priorTurns(request)) {
        case 0:
          return toolCallTurn([{ name: 'Write', input: { file_path: 'as.txt', content: `${manyAs}${'a'.repeat(50_000)}!\nend aaa\n` } }]);
        case 1:
          return toolCallTurn([{ name: 'Grep', input: { pattern: catastrophicRegex, path: 'as.txt' } }]);
        default:
          return textTurn('Checked the new file.');
      }
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const args = ['run', '--json', '--agent', 'refactorer', '--workspace', world.workspace, ...provider.args, 'Rewrite as.txt'];
    const { code, stdout } = await startCli(world.cliPath, args, provider.env).exited;
    expect(code).toBe(0);
    expect(world.server.requests[2].lastMessageText).toBe('as.txt:3: end aaa');
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'change-proposed').map((event) => event.path)).toEqual(['as.txt']);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Checked the new file.' });
  });

  it('SIGINT during a Grep with a pathological pattern stops the run with 130', async () => {
    // Enough text that the JavaScript search of the second Grep is still at work when the signal comes.
    for (let index = 0; index < 8; index++) await writeFile(path.join(world.workspace, `big-${index}.txt`), manyAs.repeat(20));
    world.server.respondWith((request) => {
      switch (priorTurns(request)) {
        case 0:
          return toolCallTurn([{ name: 'Grep', input: { pattern: catastrophicRegex, path: 'as.txt' } }]);
        case 1:
          return toolCallTurn([{ name: 'Grep', input: { pattern: catastrophicRegex } }]);
        default:
          return hangingStream({ text: ['Reading the results…'] });
      }
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const args = ['run', '--json', '--agent', 'researcher', '--workspace', world.workspace, ...provider.args, 'Search'];
    const run = startCli(world.cliPath, args, withoutRipgrep(provider.env));
    // The second Grep is called only once the first has answered: a frozen process never gets there.
    let grepCalls = 0;
    await run.waitForEvent((event) => event.type === 'tool-call' && event.toolName === 'Grep' && ++grepCalls === 2);
    run.child.kill('SIGINT');
    const { code, stdout } = await run.exited;
    expect(code).toBe(130);
    const events = parseEvents(stdout);
    expect(events.filter((event) => event.type === 'task-end').map((event) => event.status)).toEqual(['stopped']);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'stopped' });
  });
});
