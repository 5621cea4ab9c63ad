/**
 * Remote agents whose cards cannot be taken at their word, through the CLI (`agent-team run --agent
 * <role> --json`): a card that claims protocol 1.0 in front of an agent that speaks 0.3 (the old SDK's
 * server), a card with no interface we can use, and a card with a protocol version nobody speaks. Each
 * fails the run with one error naming the role, the address, what the card offered and what was tried.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLegacySdkV03Agent } from '../support/interop/legacy-sdk-v03-agent.js';
import { listenOnLoopback } from '../support/interop/loopback-listener.js';
import { parseEvents, providerEnvironment, startCli } from '../cli/cli-harness.js';
import { useCliWorld } from '../cli/cli-world.js';

const world = useCliWorld({});

interface Offered {
  protocolBinding: string;
  protocolVersion: string;
  path: string;
}

/**
 * An agent that serves `interfaces` as its 1.0 card (at its own origin) and passes every other request on
 * to `behind` (or answers 404): what a card that lies about the agent behind it looks like.
 */
async function agentWithCard(interfaces: Offered[], behind?: string): Promise<string> {
  const listener = await listenOnLoopback();
  const card = {
    name: 'forged',
    description: 'A card that does not match its agent',
    version: '1.0.0',
    supportedInterfaces: interfaces.map((offered) => ({
      url: `${listener.origin}${offered.path}`,
      protocolBinding: offered.protocolBinding,
      protocolVersion: offered.protocolVersion,
    })),
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
  listener.serve((request, response) => {
    if (request.method === 'GET' && request.url?.endsWith('/.well-known/agent-card.json'))
      return void response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card));
    if (!behind) return void response.writeHead(404).end();
    const body: Buffer[] = [];
    request.on('data', (chunk: Buffer) => body.push(chunk));
    request.on('end', () => {
      void fetch(new URL(request.url ?? '/', behind), {
        method: request.method,
        headers: { 'Content-Type': request.headers['content-type'] ?? 'application/json' },
        body: Buffer.concat(body),
      }).then(async (answer) => {
        response.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'application/json' });
        response.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  return `${listener.origin}/`;
}

async function runRole(url: string) {
  const roles = path.join(world.workspace, '.agent-team', 'agents');
  await mkdir(roles, { recursive: true });
  await writeFile(path.join(roles, 'remote.md'), `---\nname: remote\ndescription: A remote agent.\na2a_url: ${url}\n---\n`);
  const provider = providerEnvironment('openai', world.server.baseUrl);
  const { code, stdout } = await startCli(
    world.cliPath,
    ['run', '--agent', 'remote', '--json', '--workspace', world.workspace, '--trust', ...provider.args, 'Hello?'],
    provider.env,
  ).exited;
  const runEnd = parseEvents(stdout).at(-1);
  return { code, runEnd, error: String(runEnd?.error ?? '') };
}

describe('a remote role whose card cannot be taken at its word', () => {
  it('a card that claims 1.0 in front of a 0.3 agent: says the agent may speak another version, what was offered and tried', async () => {
    const legacy = await startLegacySdkV03Agent({ preferred: 'JSONRPC' });
    const url = await agentWithCard([{ protocolBinding: 'JSONRPC', protocolVersion: '1.0', path: '/a2a/jsonrpc' }], legacy.url);
    const { code, runEnd, error } = await runRole(url);

    expect(code).toBe(1);
    expect(runEnd).toMatchObject({ type: 'run-end', status: 'failed' });
    expect(error).toContain(`The remote agent for 'remote' at ${url} did not take the task`);
    expect(error).toContain('the agent may speak another protocol version than its card offers');
    expect(error).toContain(`Its card offers: JSON-RPC 1.0 at ${url}a2a/jsonrpc; tried JSON-RPC 1.0 at ${url}a2a/jsonrpc`);
    expect(legacy.journal.prompts).toEqual([]);
  });

  it('a card with no interface we can use names what it offers', async () => {
    const url = await agentWithCard([{ protocolBinding: 'GRPC', protocolVersion: '1.0', path: '/grpc' }]);
    const { code, error } = await runRole(url);
    expect(code).toBe(1);
    expect(error).toBe(
      `The remote agent for 'remote' at ${url} cannot be used: it offers no interface we can use (we use JSON-RPC and HTTP+JSON/REST). Its card offers: GRPC 1.0 at ${url}grpc.`,
    );
  });

  it('a card with a protocol version nobody speaks names the versions we do', async () => {
    const url = await agentWithCard([
      { protocolBinding: 'JSONRPC', protocolVersion: '2.0', path: '/rpc' },
      { protocolBinding: 'HTTP+JSON', protocolVersion: '0.2', path: '/rest' },
    ]);
    const { code, error } = await runRole(url);
    expect(code).toBe(1);
    expect(error).toBe(
      `The remote agent for 'remote' at ${url} cannot be used: it offers no protocol version we speak (we speak A2A 1.0 and 0.3). Its card offers: JSON-RPC 2.0 at ${url}rpc; HTTP+JSON 0.2 at ${url}rest.`,
    );
  });
});
