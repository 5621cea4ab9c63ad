/**
 * `--allow-network-command 'npm install'` gives the network to an agent's `npm install`, never to a
 * repository's hook whose command is also `npm install`: through the real CLI bundle, in bubblewrap. The
 * repository's `preinstall` script tries a listener on 127.0.0.1 started here (inside a sandbox without
 * the network even loopback fails) and says who ran it; the listener hears from the agent's command only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'README.md': '# Demo\n' });
let listener: Server;
let heard: string[];

beforeEach(async () => {
  heard = [];
  listener = createServer((request, response) => {
    heard.push(request.url ?? '');
    response.end('ok');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const port = (listener.address() as AddressInfo).port;
  // Hooks get CLAUDE_PROJECT_DIR; an agent's command does not: the probe says which of the two ran it.
  const probe = `const who = process.env.CLAUDE_PROJECT_DIR ? 'hook' : 'agent';\nrequire('http').get('http://127.0.0.1:${port}/' + who, (response) => console.log(who + ' reached the listener: ' + response.statusCode)).on('error', (error) => console.log(who + ' could not connect: ' + error.code));\n`;
  await writeFile(path.join(world.workspace, 'probe.js'), probe);
  await writeFile(
    path.join(world.workspace, 'package.json'),
    JSON.stringify({ name: 'demo', version: '1.0.0', private: true, scripts: { preinstall: 'node probe.js' } }),
  );
  await mkdir(path.join(world.workspace, '.claude'), { recursive: true });
  await writeFile(
    path.join(world.workspace, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'npm install' }] }] } }),
  );
});

afterEach(async () => {
  listener.closeAllConnections();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});

describe('--allow-network-command and hooks', () => {
  it("gives the agent's `npm install` the network, and not the repository's hook named `npm install`", async () => {
    world.server.respondWith((request) =>
      priorTurns(request) === 0
        ? toolCallTurn([{ name: 'Bash', input: { command: 'npm install' } }])
        : textTurn(`Ran it: ${request.lastMessageText}`),
    );
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const flags = ['--allow-command', 'npm install', '--allow-network-command', 'npm install'];
    const { code, stdout } = await startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'reviewer', '--workspace', world.workspace, '--trust', ...flags, ...provider.args, 'Install'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    // The hook ran and tried: its output is the context the prompt carried.
    expect(world.server.requests[0]!.lastMessageText).toMatch(/hook could not connect: [A-Z]+/);
    expect(String(parseEvents(stdout).at(-1)?.output)).toContain('agent reached the listener: 200');
    expect(heard).toEqual(['/agent']);
  });

  it('gives the hook the network with --allow-network, which is every command', async () => {
    world.server.respondWith(() => textTurn('Nothing to do.'));
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const { code } = await startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'reviewer', '--workspace', world.workspace, '--trust', '--allow-network', ...provider.args, 'Install'],
      provider.env,
    ).exited;
    expect(code).toBe(0);
    expect(world.server.requests[0]!.lastMessageText).toContain('hook reached the listener: 200');
    expect(heard).toEqual(['/hook']);
  });
});
