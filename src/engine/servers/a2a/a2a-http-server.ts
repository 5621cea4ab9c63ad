/**
 * The A2A protocol (1.0, and 0.3 for older clients, JSON-RPC) over `node:http`, with the official SDK doing
 * the protocol: its transport handlers answer each request (`json-rpc-exchange.ts`), and this file only
 * moves bytes (the agent card on GET, JSON-RPC on POST). Written on `node:http` rather than the SDK's
 * Express app so the CLI carries no web framework.
 *
 * Without tokens it listens on 127.0.0.1 only, and answers only what a browser page cannot send on its
 * own: a JSON content type (a cross-site form cannot set it without a CORS preflight, which gets no CORS
 * answer) to a Host that is this machine (so a DNS-rebound name cannot reach it). With tokens
 * (`--auth-token-env`), every request but the agent card must carry one as a bearer token; each token is
 * one client, handed to the SDK's handlers as the call's user, so tasks belong to who created them.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { agentCardFor } from './agent-card-versions.js';
import { JsonRpcExchange, respondJson as respond } from './json-rpc-exchange.js';
import { localClient } from './task-owners.js';

export interface A2aHttpServer {
  /** The base address, ending in `/`: the JSON-RPC endpoint; its card is at `.well-known/agent-card.json`. */
  readonly url: string;
  /** Stops listening and closes every open connection (streams included). */
  close(): Promise<void>;
}

export interface A2aHttpServerOptions {
  /** 0: any free port (read the chosen one from `url`). */
  port: number;
  /** The address to listen on. Default 127.0.0.1. Anything else needs `tokens` (the CLI checks). */
  host?: string;
  /** The bearer tokens that may call, each one client. Default: none needed (loopback only). */
  tokens?: readonly string[];
  /** Builds the handler once the address is known, since the agent card states it. */
  handler(baseUrl: string): A2ARequestHandler;
  /** Told each request's headers before it is answered (a test agent records what callers send). */
  observe?(headers: IncomingHttpHeaders): void;
  /** Told of a stream that failed after its headers were sent. Default: ignored. */
  onError?(error: unknown): void;
}

/** The card's path since protocol 0.3, and the one before it (clients of A2A 0.2 still ask for it). */
const cardPath = '/.well-known/agent-card.json';
const olderCardPath = '/.well-known/agent.json';
/** A prompt is text; a body larger than this is refused rather than buffered. */
const maxBodyBytes = 4 * 1024 * 1024;

export async function startA2aHttpServer(options: A2aHttpServerOptions): Promise<A2aHttpServer> {
  // Set once listening: the handler needs the address, which the port chosen decides.
  const ready: { handler?: A2ARequestHandler; exchange?: JsonRpcExchange } = {};
  const server = createServer((request, response) => {
    if (!ready.handler || !ready.exchange) return void respond(response, 503, { error: 'starting' });
    route(request, response, ready.handler, ready.exchange, options).catch((error: unknown) => {
      options.onError?.(error);
      if (!response.headersSent) respond(response, 500, rpcError(null, -32603, 'Internal error'));
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  ready.handler = options.handler(url);
  ready.exchange = new JsonRpcExchange(ready.handler);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function route(
  request: IncomingMessage,
  response: ServerResponse,
  handler: A2ARequestHandler,
  exchange: JsonRpcExchange,
  options: A2aHttpServerOptions,
): Promise<void> {
  options.observe?.(request.headers);
  const tokens = options.tokens ?? [];
  // With tokens a rebound name gains nothing (a page cannot know one); without, only this machine's names.
  if (tokens.length === 0 && !isLocalHost(request.headers.host))
    return respond(response, 403, { error: 'this server answers only on 127.0.0.1 and localhost' });
  const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
  // The card says how to authenticate, so it is readable without a token. Its shape follows the version
  // asked for; the older path is only ever asked for by older clients.
  if (request.method === 'GET' && (path === cardPath || path === olderCardPath)) {
    const version = path === olderCardPath ? undefined : firstHeader(request.headers['a2a-version']);
    return respond(response, 200, await agentCardFor(await handler.getAgentCard(), version), { Vary: 'A2A-Version' });
  }
  const client = tokens.length === 0 ? localClient : clientOfToken(request.headers, tokens);
  if (client === undefined)
    return respond(response, 401, rpcError(null, -32600, 'Not authorized: send Authorization: Bearer <token>'), {
      'WWW-Authenticate': 'Bearer',
    });
  if (request.method !== 'POST' || path !== '/')
    return respond(response, 404, { error: `not found: POST JSON-RPC to /, or GET ${cardPath}` });
  if (!/^application\/(?:a2a\+)?json\b/i.test(request.headers['content-type'] ?? ''))
    return respond(response, 415, rpcError(null, -32600, 'Content-Type must be application/json'));
  const body = await readBody(request);
  if (body === undefined) return respond(response, 413, rpcError(null, -32600, `the request is over ${maxBodyBytes} bytes`));
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return respond(response, 400, rpcError(null, -32700, 'Invalid JSON payload.'));
  }
  await exchange.answer(parsed, client, request, response, options.onError);
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        resolve(undefined);
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value) || undefined;
}

function isLocalHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.replace(/:\d+$/, '').toLowerCase();
  return name === '127.0.0.1' || name === 'localhost' || name === '[::1]';
}

function rpcError(id: unknown, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** The client a bearer token names (`token-<n>`, its place in the list), compared in constant time. */
function clientOfToken(headers: IncomingHttpHeaders, tokens: readonly string[]): string | undefined {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  if (presented === undefined) return undefined;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const given = digest(presented);
  let found: number | undefined;
  // Every token is compared, so the time taken says nothing about which (or whether one) matched.
  tokens.forEach((token, index) => {
    if (timingSafeEqual(given, digest(token)) && found === undefined) found = index;
  });
  return found === undefined ? undefined : `token-${found + 1}`;
}
