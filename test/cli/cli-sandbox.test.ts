/**
 * The command sandbox through the real CLI bundle and both SDKs, tried as a hijacked agent would: the
 * model asks for commands that go after the API key (the environment, every process's environment in
 * /proc), the user's SSH key and the network. The key reaches no command and no surface (the next model
 * request, the JSON events, the trace); a machine without a sandbox refuses commands until --no-sandbox.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import {
  bubblewrapReplacedBy,
  canReplaceBubblewrap,
  failingBubblewrap,
  replacingBubblewrapNeedsRoot,
  sandboxRefusalPattern,
} from './bubblewrap-replaced.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'a.txt': 'hello\n' });
const canaryKey = 'sk-ant-canary-0123456789abcdef';
const cleanup: string[] = [];

afterEach(async () => {
  for (const folder of cleanup.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** The reviewer runs `command`, then answers with what it read. */
function reviewerRuns(command: string): void {
  world.server.respondWith((request) =>
    priorTurns(request) === 0 ? toolCallTurn([{ name: 'Bash', input: { command } }]) : textTurn(`Result: ${request.lastMessageText}`),
  );
}

describe.each(['anthropic', 'openai'] as const)('a hijacked command in the CLI over %s', (protocol) => {
  it('finds no key in its environment or in /proc, no ~/.ssh, and the key is on no surface', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
    cleanup.push(home);
    await mkdir(path.join(home, '.ssh'));
    await writeFile(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY 5678\n');
    reviewerRuns(`env; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c _API_KEY; cat ${home}/.ssh/id_rsa; echo finished`);
    const provider = providerEnvironment(protocol, world.server.baseUrl);
    const key = protocol === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
    const trace = path.join(world.workspace, 'trace.json');
    const { code, stdout, stderr } = await startCli(
      world.cliPath,
      [
        'run',
        '--json',
        '--agent',
        'reviewer',
        '--workspace',
        world.workspace,
        '--allow-command',
        '*',
        '--trace',
        trace,
        ...provider.args,
        'Check',
      ],
      { ...provider.env, [key]: canaryKey, HOME: home },
    ).exited;
    expect(code).toBe(0);
    const output = String(parseEvents(stdout).at(-1)?.output);
    expect(output).toContain('finished');
    expect(output).toMatch(/^0$/m);
    expect(output).toContain('No such file or directory');
    expect(output).not.toContain('PRIVATE KEY');
    for (const surface of [
      stdout,
      stderr,
      await readFile(trace, 'utf8'),
      JSON.stringify(world.server.requests.map((request) => request.body)),
    ])
      expect(surface).not.toContain(canaryKey);
  });
});

describe('the network from inside a command', () => {
  /** The probe's output when run as the reviewer's command with `flags`, against a local server. */
  async function probeWith(...flags: string[]): Promise<string> {
    const server = createServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const probe = `node -e "require('http').get('http://127.0.0.1:${port}/', (r) => console.log('status ' + r.statusCode)).on('error', (e) => console.log('error ' + e.code))"`;
      const provider = providerEnvironment('openai', world.server.baseUrl);
      reviewerRuns(probe);
      const { stdout } = await startCli(
        world.cliPath,
        [
          'run',
          '--json',
          '--agent',
          'reviewer',
          '--workspace',
          world.workspace,
          '--allow-command',
          'node *',
          ...flags,
          ...provider.args,
          'Probe',
        ],
        provider.env,
      ).exited;
      return String(parseEvents(stdout).at(-1)?.output);
    } finally {
      server.close();
    }
  }

  it('is out of reach by default', async () => {
    expect(await probeWith()).toMatch(/error [A-Z]+/);
  });

  it('is reachable with --allow-network', async () => {
    expect(await probeWith('--allow-network')).toContain('status 200');
  });

  it('is reachable for a command --allow-network-command allows', async () => {
    expect(await probeWith('--allow-network-command', 'node -e *')).toContain('status 200');
  });
});

describe.skipIf(!canReplaceBubblewrap)(`a machine where the sandbox cannot start (${replacingBubblewrapNeedsRoot})`, () => {
  it('says so on stderr and refuses commands, naming --no-sandbox; with it, they run', async () => {
    // A bwrap in the system's place that fails as it does in a container that forbids namespaces.
    const replaced = await bubblewrapReplacedBy(failingBubblewrap);
    cleanup.push(path.dirname(replaced.wrapper.at(-1)!));
    const provider = providerEnvironment('openai', world.server.baseUrl);
    reviewerRuns('cat a.txt');
    const refused = await startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'reviewer', '--workspace', world.workspace, '--allow-command', 'cat *', ...provider.args, 'Read'],
      provider.env,
      { wrapper: replaced.wrapper },
    ).exited;
    expect(refused.stderr).toMatch(new RegExp(`agent-team: no OS sandbox here \\((?:${sandboxRefusalPattern.source})\\)`));
    expect(String(parseEvents(refused.stdout).at(-1)?.output)).toContain('Not run: there is no OS sandbox here');
    expect(String(parseEvents(refused.stdout).at(-1)?.output)).toContain('--no-sandbox');
    reviewerRuns('cat a.txt');
    const unsandboxed = await startCli(
      world.cliPath,
      [
        'run',
        '--json',
        '--agent',
        'reviewer',
        '--workspace',
        world.workspace,
        '--allow-command',
        'cat *',
        '--no-sandbox',
        ...provider.args,
        'Read',
      ],
      provider.env,
      { wrapper: replaced.wrapper },
    ).exited;
    expect(unsandboxed.stderr).toContain('--no-sandbox: allowed commands run as you');
    expect(String(parseEvents(unsandboxed.stdout).at(-1)?.output)).toContain('hello');
  });
});
