import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Deferred, createDeferred } from '../../../src/engine/util/deferred.js';
import { anthropicErrorBody, anthropicErrorFrame, anthropicRequestProblem, anthropicTurnFrames } from './anthropic-protocol.js';
import { openAIErrorBody, openAIErrorFrame, openAIRequestProblem, openAITurnFrames, wantsUsage } from './openai-protocol.js';
import { contextLengthErrorBody, mockTokenCount } from './context-window.js';
import { describeBody, type MockProtocol, presentedApiKey, type RecordedRequest } from './recorded-request.js';
import type { MockDelay, MockHttpError, MockResponder, MockResponse, MockTurnContent } from './responses.js';

export interface MockProviderServerOptions {
  /** When set, a request must carry this key (`x-api-key`, or `Authorization: Bearer`), else 401. Default: any key or none. */
  apiKey?: string;
  /** Answer 400, as the real APIs would, to malformed conversations (unpaired tool calls, empty text). Default true. */
  validateRequests?: boolean;
  /** Serve HTTPS with this key and certificate (PEM) instead of plain HTTP; `baseUrl` then starts `https://`. */
  tls?: { key: string; cert: string };
  /**
   * Enforce a context window of this many tokens (context-window.ts): a longer request gets the provider's
   * real context-length error, and turns without scripted usage report the counted input. Default: none.
   */
  contextWindowTokens?: number;
}

/** A mock of both providers' streaming APIs on 127.0.0.1; see index.ts for how to use it. */
export class MockProviderServer {
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[] = [];
  private readonly queue: Array<MockResponse | MockResponder> = [];
  private fallback: MockResponder | undefined;
  private readonly arrivals = new Map<number, Deferred<RecordedRequest>>();
  private readonly clientCloses = new Map<number, Deferred<void>>();
  private readonly responsesSent = new Map<number, Deferred<void>>();
  private readonly droppedByServer = new WeakSet<ServerResponse>();
  private clientClosedCount = 0;
  private closing = false;
  private windowTokens: number | undefined;

  constructor(
    private readonly server: Server,
    private readonly options: MockProviderServerOptions,
  ) {
    this.windowTokens = options.contextWindowTokens;
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      this.handle(request, response).catch((error: unknown) => {
        // A bug in the mock itself: answer so the client does not hang, and never invite a retry.
        if (!response.headersSent) {
          response.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
          response.end(JSON.stringify({ error: { message: `mock provider failed: ${String(error)}` } }));
        } else {
          response.destroy();
        }
      });
    });
  }

  /** `http://127.0.0.1:<port>` (`https://` with `tls`): the Anthropic SDK's base URL (it adds `/v1/messages`). */
  get baseUrl(): string {
    const address = this.server.address() as AddressInfo;
    return `${this.options.tls ? 'https' : 'http'}://127.0.0.1:${address.port}`;
  }

  /** `<baseUrl>/v1`: the OpenAI SDK's base URL (it adds `/chat/completions`). */
  get openaiBaseUrl(): string {
    return `${this.baseUrl}/v1`;
  }

  /** How many requests lost their client before the response was complete (aborts, closed sockets). */
  get closedRequests(): number {
    return this.clientClosedCount;
  }

  /** Scripted responses not yet used. */
  get pendingResponses(): number {
    return this.queue.length;
  }

  /** Queues responses, used one per request in arrival order (retries count as requests). */
  enqueue(...responses: Array<MockResponse | MockResponder>): void {
    this.queue.push(...responses);
  }

  /** Answers every request that finds the queue empty; `undefined` removes it. Default: none (400). */
  respondWith(responder: MockResponder | undefined): void {
    this.fallback = responder;
  }

  /** Enforces a context window from now on (`contextWindowTokens`); undefined lifts it. */
  enforceContextWindow(tokens: number | undefined): void {
    this.windowTokens = tokens;
  }

  /** Resolves when request `index` (0-based) has arrived. */
  waitForRequest(index: number): Promise<RecordedRequest> {
    return deferredAt(this.arrivals, index).promise;
  }

  /** Resolves when the whole response to request `index` has been handed to the network (an error's, say). */
  waitForResponseSent(index: number): Promise<void> {
    return deferredAt(this.responsesSent, index).promise;
  }

  /** Resolves when the client of request `index` went away before its response was complete. */
  waitForClientClose(index: number): Promise<void> {
    return deferredAt(this.clientCloses, index).promise;
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    const protocol = protocolFor(request.method ?? 'GET', path);
    const text = await readBody(request);
    if (!protocol) {
      sendJson(response, 404, { error: { type: 'not_found_error', message: `mock provider: no route for ${request.method} ${path}` } }, {});
      return;
    }
    const body = parseJson(text);
    const index = this.requests.length;
    const headers = flattenHeaders(request.headers);
    const recorded: RecordedRequest = {
      index,
      protocol,
      method: request.method ?? 'POST',
      path,
      headers,
      apiKey: presentedApiKey(headers),
      body,
      ...describeBody(protocol, body),
    };
    this.requests.push(recorded);
    this.watchClient(index, response);
    deferredAt(this.arrivals, index).resolve(recorded);

    if (body === undefined)
      return sendError(response, protocol, { type: 'http-error', status: 400, message: 'the request body is not valid JSON' });
    if (this.options.apiKey !== undefined && recorded.apiKey !== this.options.apiKey) {
      return sendError(response, protocol, { type: 'http-error', status: 401, message: 'mock provider: invalid API key' });
    }
    if (this.options.validateRequests ?? true) {
      const problem = protocol === 'anthropic' ? anthropicRequestProblem(body) : openAIRequestProblem(body);
      if (problem) return sendError(response, protocol, { type: 'http-error', status: 400, message: problem });
    }
    const counted = mockTokenCount(body);
    if (this.windowTokens !== undefined && counted > this.windowTokens) {
      recorded.refusedAsTooLong = true;
      return sendJson(response, 400, contextLengthErrorBody(protocol, counted, this.windowTokens, index), {});
    }
    const scripted = await this.nextResponse(recorded);
    if (!scripted) {
      const message = `mock provider: no response queued for request #${index} (${recorded.method} ${path})`;
      return sendError(response, protocol, { type: 'http-error', status: 400, message });
    }
    await this.wait(scripted.delay, index);
    if (response.destroyed) return;
    if (scripted.type === 'http-error') return sendError(response, protocol, scripted);

    const model = recorded.model || 'mock-model';
    const complete = scripted.type === 'turn';
    const scriptedContent: MockTurnContent = scripted.type === 'turn' ? scripted : (scripted.partial ?? {});
    // With a window enforced, a turn without scripted usage reports what was counted (a copy: scripts may be reused).
    const content =
      scripted.type === 'turn' && scripted.usage === undefined && this.windowTokens !== undefined
        ? { ...scriptedContent, usage: { inputTokens: counted, outputTokens: 5 } }
        : scriptedContent;
    const frameOptions = { requestIndex: index, model, complete };
    const frames =
      protocol === 'anthropic'
        ? anthropicTurnFrames(content, frameOptions)
        : openAITurnFrames(content, { ...frameOptions, includeUsage: wantsUsage(body) });
    if (scripted.type === 'stream-error') {
      const message = scripted.message ?? 'Overloaded';
      frames.push(protocol === 'anthropic' ? anthropicErrorFrame(message) : openAIErrorFrame(message));
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      [protocol === 'anthropic' ? 'request-id' : 'x-request-id']: `req_mock_${index}`,
    });
    await writeFrames(response, frames);
    if (scripted.type === 'turn' || scripted.type === 'stream-error' || (scripted.type === 'drop' && scripted.how === 'end')) {
      response.end();
    } else if (scripted.type === 'drop') {
      this.droppedByServer.add(response);
      response.destroy();
    }
    // A hanging stream stays open until the client leaves or the server closes.
  }

  private async nextResponse(request: RecordedRequest): Promise<MockResponse | undefined> {
    // Taken synchronously, so concurrent requests get queued responses in arrival order.
    const next = this.queue.shift() ?? this.fallback;
    if (next === undefined) return undefined;
    return typeof next === 'function' ? await next(request) : next;
  }

  private async wait(delay: MockDelay | undefined, index: number): Promise<void> {
    if (delay === undefined) return;
    const clientGone = this.waitForClientClose(index);
    await Promise.race([typeof delay === 'number' ? sleep(delay) : delay, clientGone]);
  }

  private watchClient(index: number, response: ServerResponse): void {
    response.once('finish', () => deferredAt(this.responsesSent, index).resolve());
    response.once('close', () => {
      if (response.writableFinished || this.droppedByServer.has(response) || this.closing) return;
      this.clientClosedCount++;
      deferredAt(this.clientCloses, index).resolve();
    });
  }
}

/** Starts a mock provider on 127.0.0.1 and a free port. Close it when done (`afterEach`). */
export async function startMockProviderServer(options: MockProviderServerOptions = {}): Promise<MockProviderServer> {
  const server = options.tls ? createTlsServer(options.tls) : createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return new MockProviderServer(server, options);
}

function protocolFor(method: string, path: string): MockProtocol | undefined {
  if (method !== 'POST') return undefined;
  if (path === '/v1/messages') return 'anthropic';
  if (path === '/v1/chat/completions' || path === '/chat/completions') return 'openai';
  return undefined;
}

function sendError(response: ServerResponse, protocol: MockProtocol, error: MockHttpError): void {
  const message = error.message ?? defaultErrorMessage(error.status);
  const body = protocol === 'anthropic' ? anthropicErrorBody(error.status, message) : openAIErrorBody(error.status, message);
  sendJson(response, error.status, body, { 'retry-after': '0', 'retry-after-ms': '1', ...error.headers });
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function defaultErrorMessage(status: number): string {
  if (status === 401) return 'invalid x-api-key';
  if (status === 403) return 'this API key may not use this model';
  if (status === 429) return 'rate limit exceeded';
  if (status === 529) return 'Overloaded';
  if (status === 404) return 'not found';
  if (status >= 500) return 'internal server error';
  return `mock error ${status}`;
}

/** Writes every frame and resolves once the last one has been handed to the socket. */
function writeFrames(response: ServerResponse, frames: string[]): Promise<void> {
  return new Promise((resolve) => {
    if (frames.length === 0) return resolve();
    frames.forEach((frame, position) => {
      if (position === frames.length - 1) response.write(frame, () => resolve());
      else response.write(frame);
    });
  });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function deferredAt<Value>(map: Map<number, Deferred<Value>>, index: number): Deferred<Value> {
  let entry = map.get(index);
  if (!entry) {
    entry = createDeferred<Value>();
    map.set(index, entry);
  }
  return entry;
}
