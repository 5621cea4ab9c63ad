/**
 * The agent loop's limits through the real CLI bundle, with the real tools and SDKs over the mock
 * provider: a turn's tool calls past 16 are answered without running, and a tool result over 64 KiB
 * reaches the model cut, with a note.
 */
import { describe, expect, it } from 'vitest';
import { type MockProtocol, type RecordedRequest, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

// 2000 lines of 100 bytes: Read returns all of it (about 210 KB with line numbers), well past 64 KiB.
const bigFile = Array.from({ length: 2000 }, (_, index) => `${String(index + 1).padStart(5, '0')} ${'x'.repeat(93)}\n`).join('');
const world = useCliWorld({ 'big.txt': bigFile, 'small.ts': 'export const small = 1;\n' });

/** The tool results a request carries in its last turn, in call order, for either protocol. */
function toolResultTexts(request: RecordedRequest): string[] {
  const messages = (request.body as { messages: Array<{ role: string; content: unknown }> }).messages;
  if (request.protocol === 'openai') {
    const lastAssistant = messages.map((message) => message.role).lastIndexOf('assistant');
    return messages.slice(lastAssistant + 1).flatMap((message) => (message.role === 'tool' ? [String(message.content)] : []));
  }
  const blocks = messages.at(-1)?.content as Array<{ type: string; content?: unknown }>;
  return blocks.filter((block) => block.type === 'tool_result').map((block) => String(block.content));
}

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run: agent loop limits (%s)', (protocol) => {
  it('answers calls past 16 in a turn without running them, and cuts a result over 64 KiB with a note', async () => {
    world.server.respondWith((request) => {
      if (priorTurns(request) === 0) {
        const globs = Array.from({ length: 17 }, () => ({ name: 'Glob', input: { pattern: '*.ts' } }));
        return toolCallTurn([{ name: 'Read', input: { file_path: 'big.txt' } }, ...globs]);
      }
      return textTurn('Read what fitted.');
    });
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const run = startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'researcher', '--workspace', world.workspace, ...provider.args, 'Read big.txt'],
      provider.env,
    );
    const { code, stdout, stderr } = await run.exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(parseEvents(stdout).at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Read what fitted.' });

    expect(world.server.requests).toHaveLength(2);
    const results = toolResultTexts(world.server.requests[1]);
    expect(results).toHaveLength(18);
    const [read, ...globs] = results;
    expect(Buffer.byteLength(read)).toBeLessThanOrEqual(65_536);
    expect(read).toContain('00001 xxx');
    expect(read).toMatch(/\[Agent Team: output truncated to its first \d+ of \d+ bytes \(a tool result keeps at most 65536 bytes\)/);
    expect(globs.slice(0, 15).every((text) => text.includes('small.ts'))).toBe(true);
    expect(globs.slice(15)).toEqual(
      [17, 18].map(
        (position) =>
          `${protocol === 'openai' ? 'Error: ' : ''}Tool "Glob" was not run: this was call ${position} of the turn, and a turn may make at most 16 tool calls. Make the calls that are still needed in your next turn.`,
      ),
    );
  });
});
