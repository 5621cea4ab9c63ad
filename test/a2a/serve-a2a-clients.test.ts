/**
 * `agent-team serve --a2a` belongs to its clients, through the real CLI bundle and the official A2A
 * clients (the 0.3 SDK's, and the 1.x SDK's speaking protocol 1.0): a bearer token from --auth-token-env (the card readable without it), one client per token and
 * each task its creator's, no second run on a working task, a cancel that stops the run whenever it
 * comes, and no listening beyond loopback without a token.
 */
import { randomUUID } from 'node:crypto';
import type { Message } from 'a2a-sdk-v03';
import { ClientFactory, JsonRpcTransportFactory } from 'a2a-sdk-v03/client';
import { TaskState } from '@a2a-js/sdk';
import { ClientFactory as V1ClientFactory, JsonRpcTransportFactory as V1JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { v1UserMessage } from '../support/interop/sdk-clients.js';
import { describe, expect, it } from 'vitest';
import { hangingStream, textTurn } from '../support/mock-provider/index.js';
import { providerEnvironment, startCli } from '../cli/cli-harness.js';
import { useCliWorld } from '../cli/cli-world.js';
import { useServedTeam } from './served-team.js';

const world = useCliWorld({ 'parser.ts': 'export const parse = (text: string) => new Date(text);\n' });
const tokenA = 'token-of-client-a-0123456789';
const tokenB = 'token-of-client-b-9876543210';
const team = useServedTeam(world);
const serve = (...flags: string[]) => team.serve(flags, { A2A_TOKENS: `${tokenA},${tokenB}` });

const userMessage = (text: string, extra: Partial<Message> = {}): Message => ({
  kind: 'message',
  messageId: randomUUID(),
  role: 'user',
  parts: [{ kind: 'text', text }],
  metadata: { skill: 'researcher' },
  ...extra,
});

/** The 1.x SDK's client (protocol 1.0), sending `token` as a bearer token (or nothing). */
function v1ClientWith(url: string, token?: string) {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  return new V1ClientFactory({ transports: [new V1JsonRpcTransportFactory({ fetchImpl })] }).createFromUrl(url);
}

/** The official 0.3 client, sending `token` as a bearer token (or nothing). */
function clientWith(url: string, token?: string) {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  return new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })] }).createFromUrl(url);
}

describe('serve --a2a --auth-token-env', () => {
  it('answers only a client with a token; the card, readable without one, says so', async () => {
    world.server.respondWith(() => textTurn('The parser is in parser.ts:1.'));
    const url = await serve('--auth-token-env', 'A2A_TOKENS');
    const card = (await (await fetch(`${url}.well-known/agent-card.json`)).json()) as { securitySchemes?: unknown; security?: unknown };
    expect(card).toMatchObject({ securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, security: [{ bearer: [] }] });
    const post = (authorization?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x' } }),
      });
    expect((await post()).status).toBe(401);
    expect((await post('Bearer wrong-token-000000000000')).status).toBe(401);
    const client = await clientWith(url, tokenA);
    const answer = await client.sendMessage({ message: userMessage('Where is the parser?') });
    expect(JSON.stringify(answer)).toContain('The parser is in parser.ts:1.');
  });

  it("keeps each client's tasks its own: another client's get, cancel and message find no such task", async () => {
    world.server.respondWith(() => hangingStream({ text: ['Thinking…'] }));
    const url = await serve('--auth-token-env', 'A2A_TOKENS');
    const [clientA, clientB] = await Promise.all([clientWith(url, tokenA), clientWith(url, tokenB)]);
    const stream = clientA.sendMessageStream({ message: userMessage('Think long') });
    const first = (await stream.next()).value as { id?: string; taskId?: string };
    const taskId = (first.id ?? first.taskId)!;
    await world.server.waitForRequest(0);
    await expect(clientB.getTask({ id: taskId })).rejects.toThrow(/not found/i);
    await expect(clientB.cancelTask({ id: taskId })).rejects.toThrow(/not found/i);
    await expect(clientB.sendMessage({ message: userMessage('Hijack it', { taskId }) })).rejects.toThrow(/not found/i);
    await expect(clientB.sendMessage({ message: userMessage('Read it', { referenceTaskIds: [taskId] }) })).rejects.toThrow(/not found/i);
    // Its own client reads it, and a second message to it while it works is refused.
    expect((await clientA.getTask({ id: taskId })).status.state).toBe('working');
    await expect(clientA.sendMessage({ message: userMessage('And another thing', { taskId }) })).rejects.toThrow(/still working/);
    expect((await clientA.cancelTask({ id: taskId })).status.state).toBe('canceled');
    await world.server.waitForClientClose(0);
    await stream.return(undefined);
  });

  it('holds the same for a protocol 1.0 client: the 1.0 card says bearer; no token, no call; tasks stay their own', async () => {
    world.server.respondWith(() => hangingStream({ text: ['Thinking…'] }));
    const url = await serve('--auth-token-env', 'A2A_TOKENS');
    const card = (await (await fetch(`${url}.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json()) as Record<
      string,
      unknown
    >;
    expect(card).toMatchObject({
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'bearer' } } },
      securityRequirements: [{ schemes: { bearer: {} } }],
    });
    expect(card.supportedInterfaces).toEqual([
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ]);
    await expect(v1ClientWith(url).then((client) => client.getTask({ tenant: '', id: 'x' }))).rejects.toThrow(/401|authoriz/i);
    const [clientA, clientB] = await Promise.all([v1ClientWith(url, tokenA), v1ClientWith(url, tokenB)]);
    expect(clientA.protocolVersion).toBe('1.0');
    const stream = clientA.sendMessageStream({
      tenant: '',
      message: v1UserMessage('Think long', { skill: 'researcher' }),
      configuration: undefined,
      metadata: undefined,
    });
    const first = (await stream.next()).value!;
    const taskId = first.payload?.$case === 'task' ? first.payload.value.id : '';
    expect(taskId).not.toBe('');
    await world.server.waitForRequest(0);
    await expect(clientB.getTask({ tenant: '', id: taskId })).rejects.toThrow(/not found/i);
    await expect(clientB.cancelTask({ tenant: '', id: taskId, metadata: undefined })).rejects.toThrow(/not found/i);
    await expect(
      clientB.sendMessage({
        tenant: '',
        message: v1UserMessage('Hijack it', { skill: 'researcher' }, taskId),
        configuration: undefined,
        metadata: undefined,
      }),
    ).rejects.toThrow(/not found/i);
    await expect(
      clientA.sendMessage({
        tenant: '',
        message: v1UserMessage('And another thing', { skill: 'researcher' }, taskId),
        configuration: undefined,
        metadata: undefined,
      }),
    ).rejects.toThrow(/still working/);
    expect((await clientA.cancelTask({ tenant: '', id: taskId, metadata: undefined })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await world.server.waitForClientClose(0);
    await stream.return(undefined);
  });

  it('a cancel right after the message stops the run', async () => {
    world.server.respondWith((request) =>
      request.lastMessageText === 'Think long' ? hangingStream({ text: ['Thinking…'] }) : textTurn('Later answer.'),
    );
    const url = await serve('--no-auth');
    const client = await clientWith(url);
    const stream = client.sendMessageStream({ message: userMessage('Think long') });
    const first = (await stream.next()).value as { id?: string; taskId?: string };
    const task = await client.cancelTask({ id: (first.id ?? first.taskId)! });
    expect(task.status.state).toBe('canceled');
    let last: unknown;
    for await (const event of stream) last = event;
    expect(last).toMatchObject({ kind: 'status-update', final: true, status: { state: 'canceled' } });
    // Another task runs to its end: by then a run the cancel missed would have asked the model too.
    expect(JSON.stringify(await client.sendMessage({ message: userMessage('Something else') }))).toContain('Later answer.');
    // The cancelled run either never asked the model or had its request closed: no run goes on.
    const held = world.server.requests.flatMap((request, index) => (request.lastMessageText === 'Think long' ? [index] : []));
    for (const index of held) await world.server.waitForClientClose(index);
  });

  it('refuses to listen beyond loopback without a token, and an empty token variable', async () => {
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const open = await startCli(
      world.cliPath,
      ['serve', '--a2a', '--port', '0', '--host', '0.0.0.0', '--workspace', world.workspace, ...provider.args],
      provider.env,
    ).exited;
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('--host 0.0.0.0 would let other machines reach the team: it needs --auth-token-env <NAME>');
    const empty = await startCli(
      world.cliPath,
      ['serve', '--a2a', '--port', '0', '--auth-token-env', 'NO_SUCH_VARIABLE', '--workspace', world.workspace, ...provider.args],
      provider.env,
    ).exited;
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the variable NO_SUCH_VARIABLE is not set or empty');
  });

  it('refuses to serve on loopback without a token unless --no-auth says so', async () => {
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const bare = await startCli(
      world.cliPath,
      ['serve', '--a2a', '--port', '0', '--workspace', world.workspace, ...provider.args],
      provider.env,
    ).exited;
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(
      '"serve --a2a" needs --auth-token-env <NAME> (the variable holding the token clients must send) or --no-auth',
    );
    expect(bare.stderr).not.toContain('serving the team');
    // With --no-auth it serves, and says that no token is asked for.
    const url = await serve('--no-auth');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const running = team.take();
    running.child.kill('SIGTERM');
    expect((await running.exited).stderr).toContain('; no token (--no-auth): any program on this machine may use it; Ctrl-C stops it');
  });
});
