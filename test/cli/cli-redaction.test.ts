/**
 * A configured secret read by a tool (a file that holds the API key) is redacted in one place, where the
 * tool result enters: through the real CLI bundle and both SDKs, the key is in no later model request, no
 * JSON event, no trace and no saved run history.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const canaryKey = 'sk-ant-canary-fedcba9876543210';
const world = useCliWorld({ 'deploy.env': `PROVIDER_KEY=${canaryKey}\nREGION=eu\n` });

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true }).catch(() => []);
  return Promise.all(entries.filter((entry) => entry.isFile()).map((entry) => readFile(path.join(entry.parentPath, entry.name), 'utf8')));
}

describe.each(['anthropic', 'openai'] as const)('a key a tool read, over %s', (protocol) => {
  it('is redacted before the model, the events, the trace and the history see it', async () => {
    world.server.respondWith((request) =>
      priorTurns(request) === 0
        ? toolCallTurn([{ name: 'Read', input: { file_path: 'deploy.env' } }])
        : textTurn(`It says: ${request.lastMessageText}`),
    );
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const key = protocol === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
    const trace = path.join(world.workspace, 'run-trace.md');
    const { code, stdout, stderr } = await startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'researcher', '--workspace', world.workspace, '--trace', trace, ...provider.args, 'Read deploy.env'],
      { ...provider.env, [key]: canaryKey },
    ).exited;
    expect(code).toBe(0);
    const output = String(parseEvents(stdout).at(-1)?.output);
    expect(output).toContain('PROVIDER_KEY=[redacted]');
    expect(output).toContain('REGION=eu');
    const history = await filesUnder(path.join(world.workspace, '.agent-team', 'runs'));
    expect(history.length).toBeGreaterThan(0);
    for (const surface of [
      stdout,
      stderr,
      await readFile(trace, 'utf8'),
      JSON.stringify(world.server.requests.map((request) => request.body)),
      ...history,
    ])
      expect(surface).not.toContain(canaryKey);
  });
});
