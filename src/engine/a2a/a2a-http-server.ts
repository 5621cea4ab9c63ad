/**
 * The A2A protocol (0.3, JSON-RPC) over `node:http`, with the official SDK doing the protocol: its
 * `JsonRpcTransportHandler` answers each request, and this file only moves bytes (the agent card on GET,
 * JSON-RPC on POST, `message/stream` as server-sent events). Written on `node:http` rather than the SDK's
 * Express app so the CLI carries no web framework.
 *
 * It listens on 127.0.0.1 only, and answers only what a browser page cannot send on its own: a JSON
 * content type (a cross-site form cannot set it without a CORS preflight, which gets no CORS answer) to a
 * Host that is this machine (so a DNS-rebound name cannot reach it).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type A2ARequestHandler, JsonRpcTransportHandler, ServerCallContext, UnauthenticatedUser } from '@a2a-js/sdk/server';

export interface A2aHttpServer {
  /** The base address, ending in `/`: the JSON-RPC endpoint; its card is at `.well-known/agent-card.json`. */
  readonly url: string;
  /** Stops listening and closes every open connection (streams included). */
  close(): Promise<void>;
}

export interface A2aHttpServerOptions {
  /** 0: any free port (read the chosen one from `url`). */
  port: number;
  /** Builds the handler once the address is known, since the agent card states it. */
  handler(baseUrl: string): A2ARequestHandler;
  /** Whether a request may be answered, from its headers (a token check). Default: every request is. */
  authorize?(headers: IncomingHttpHeaders): boolean;
  /** Told of a stream that failed after its headers were sent. Default: ignored. */
  onError?(error: unknown): void;
}

/** The card's path in protocol 0.3, and the one before it (kagent and older clients still ask for it). */
const cardPaths = new Set(['/.well-known/agent-card.json', '/.well-known/agent.json']);
/** A prompt is text; a body larger than this is refused rather than buffered. */
const maxBodyBytes = 4 * 1024 * 1024;

export async function startA2aHttpServer(options: A2aHttpServerOptions): Promise<A2aHttpServer> {
  // Set once listening: the handler needs the address, which the port chosen decides.
  const ready: { handler?: A2ARequestHandler; transport?: JsonRpcTransportHandler } = {};
  const server = createServer((request, response) => {
    if (!ready.handler || !ready.transport) return void respond(response, 503, { error: 'starting' });
    route(request, response, ready.handler, ready.transport, options).catch((error: unknown) => {
      options.onError?.(error);
      if (!response.headersSent) respond(response, 500, rpcError(null, -32603, 'Internal error'));
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/`;
  ready.handler = options.handler(url);
  ready.transport = new JsonRpcTransportHandler(ready.handler);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function route(request: IncomingMessage, response: ServerResponse, handler: A2ARequestHandler, transport: JsonRpcTransportHandler, options: A2aHttpServerOptions): Promise<void> {
  if (!isLocalHost(request.headers.host)) return respond(response, 403, { error: 'this server answers only on 127.0.0.1 and localhost' });
  if (options.authorize && !options.authorize(request.headers)) return respond(response, 401, rpcError(null, -32600, 'not authorized'));
  const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
  if (request.method === 'GET' && cardPaths.has(path)) return respond(response, 200, await handler.getAgentCard());
  if (request.method !== 'POST' || path !== '/') return respond(response, 404, { error: 'not found: POST JSON-RPC to /, or GET /.well-known/agent-card.json' });
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return respond(response, 415, rpcError(null, -32600, 'Content-Type must be application/json'));
  const body = await readBody(request);
  if (body === undefined) return respond(response, 413, rpcError(null, -32600, `the request is over ${maxBodyBytes} bytes`));
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return respond(response, 400, rpcError(null, -32700, 'Invalid JSON payload.'));
  }
  const result = await transport.handle(parsed, new ServerCallContext(undefined, new UnauthenticatedUser()));
  if (!isAsyncIterable(result)) return respond(response, 200, result);
  response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  response.flushHeaders();
  // A client that goes away ends the stream here; the work goes on until it is cancelled or ends.
  const iterator = result[Symbol.asyncIterator]();
  request.socket.once('close', () => void iterator.return?.(undefined));
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      if (response.writableEnded || response.destroyed) break;
      response.write(`data: ${JSON.stringify(next.value)}\n\n`);
    }
  } catch (error) {
    options.onError?.(error);
    const id = (parsed as { id?: unknown } | null)?.id ?? null;
    if (!response.destroyed) response.write(`event: error\ndata: ${JSON.stringify(rpcError(id, -32603, 'Streaming error.'))}\n\n`);
  } finally {
    if (!response.writableEnded) response.end();
  }
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

function isLocalHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.replace(/:\d+$/, '').toLowerCase();
  return name === '127.0.0.1' || name === 'localhost' || name === '[::1]';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';
}

function rpcError(id: unknown, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function respond(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}
