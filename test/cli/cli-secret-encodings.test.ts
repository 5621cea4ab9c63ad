/**
 * The provider's key in its common encodings, printed by what an agent reads: a file the researcher Reads
 * and an allowed command the reviewer runs both hold the key base64-encoded (alone and as `user:key`),
 * hex-encoded, URL-encoded and reversed. None of them reaches the model's requests, stdout, the JSON
 * events, the run log or the `--trace` file.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const key = 'sk-ant-test-5d1c9e7a3b2f4068aa17';
const encoded = {
  base64: Buffer.from(key).toString('base64'),
  basicAuth: Buffer.from(`deploy:${key}`).toString('base64'),
  base64url: Buffer.from(`u:${key}`).toString('base64url'),
  hex: Buffer.from(key).toString('hex'),
  upperHex: Buffer.from(key).toString('hex').toUpperCase(),
  percent: Buffer.from(key).toString('hex').replace(/../g, '%$&'),
  reversed: [...key].reverse().join(''),
};
const printed = Object.entries(encoded)
  .map(([name, value]) => `${name}: ${value}`)
  .join('\n');

const world = useCliWorld({ 'dump.txt': `${printed}\n` });

async function everythingKept(stdout: string, trace: string): Promise<string> {
  const runs = path.join(world.workspace, '.agent-team', 'runs');
  const logs = await Promise.all((await readdir(runs)).map((name) => readFile(path.join(runs, name), 'utf8').catch(() => '')));
  return [JSON.stringify(world.server.requests), stdout, await readFile(trace, 'utf8'), ...logs].join('\n');
}

describe('the key in its encodings', () => {
  it('is redacted in what Read returns and in what an allowed command prints, everywhere it would be kept', async () => {
    const temporary = await mkdtemp(path.join(tmpdir(), 'agent-team-cli-encodings-'));
    onTestFinished(() => rm(temporary, { recursive: true, force: true }));
    world.server.respondWith((request) => {
      if (priorTurns(request) === 0) return toolCallTurn([{ name: 'Read', input: { file_path: 'dump.txt' } }]);
      if (priorTurns(request) === 1)
        return toolCallTurn([{ name: 'Bash', input: { command: 'cat dump.txt', description: 'Print the dump' } }]);
      return textTurn('Looked at the dump.');
    });
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const trace = path.join(temporary, 'trace.json');
    const args = [
      'run',
      '--json',
      '--agent',
      'reviewer',
      '--workspace',
      world.workspace,
      '--allow-command',
      'cat dump.txt',
      '--trace',
      trace,
      ...provider.args,
      'What is in dump.txt?',
    ];
    const { code, stdout } = await startCli(world.cliPath, args, { ...provider.env, ANTHROPIC_API_KEY: key, TMPDIR: temporary }).exited;
    expect(code).toBe(0);

    expect(world.server.requests).toHaveLength(3);
    const [, afterRead, afterCommand] = world.server.requests;
    // The agent saw the lines, with each form redacted.
    expect(afterRead!.lastMessageText).toContain('base64: [redacted]');
    expect(afterRead!.lastMessageText).toContain('reversed: [redacted]');
    expect(afterCommand!.lastMessageText).toContain('Exit code 0');
    expect(afterCommand!.lastMessageText).toContain('hex: [redacted]\nupperHex: [redacted]\npercent: [redacted]');
    const kept = await everythingKept(stdout, trace);
    for (const [name, value] of Object.entries(encoded)) expect(kept, name).not.toContain(value);
    expect(kept).toContain('basicAuth: [redacted]');
  });
});
