/**
 * The SDKs' transport (`nodeHttpFetch`) against real local servers: what it sends and hands back, one
 * connection kept for the next request, redirects refused, stops before and during a response, cut
 * connections, compressed answers, the cap on a buffered body, HTTPS, and the inputs it refuses.
 */
import { readFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { Server as TlsServer, createServer as createTlsServer, globalAgent as tlsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeHttpFetch } from '../../src/engine/model/http-transport.js';
import { RedirectRefused } from '../../src/engine/model/redirect-refused.js';
import { maxBufferedBodyBytes } from '../../src/engine/model/http-response.js';
import { isTransportOrParseFailure } from '../../src/engine/model/error-causes.js';
import { createDeferred } from '../../src/engine/util/deferred.js';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server on 127.0.0.1 that hands each request, its body read, to `handler`; counts its connections. */
async function serve(handler: Handler, server: Server = createServer()): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  server.on('connection', () => connections++);
  server.on('secureConnection', () => connections++);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handler(request, Buffer.concat(chunks).toString('utf8'), response));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const scheme = server instanceof TlsServer ? 'https' : 'http';
  return { url: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

async function chunksOf(body: AsyncIterable<Uint8Array>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk).toString('utf8'));
  return chunks;
}

describe('nodeHttpFetch', () => {
  it('sends the method, headers and body (its length set), and hands back the status, headers and body', async () => {
    let seen = createDeferred<{ method: string; headers: IncomingMessage['headers']; body: string }>();
    const { url } = await serve((request, body, response) => {
      seen.resolve({ method: request.method ?? '', headers: request.headers, body });
      response.writeHead(201, 'Made', [
        ['Content-Type', 'application/json'],
        ['X-Request-Id', 'req_1'],
        ['Vary', 'a'],
        ['Vary', 'b'],
      ]);
      response.end('{"ok":"é"}');
    });
    const headers = new Headers({ 'content-type': 'application/json', 'x-api-key': 'sk-test' });
    const response = await nodeHttpFetch(`${url}/v1/messages`, { method: 'post', headers, body: '{"text":"naïve ✓"}' });
    const request = await seen.promise;
    // Headers given as pairs, as a record, or by anything with a Headers' forEach (another realm's) read the same.
    const headerForms: RequestInit['headers'][] = [
      [['X-Api-Key', 'sk-test']],
      { 'X-Api-Key': 'sk-test' },
      { forEach: (each: (value: string, name: string) => void) => each('sk-test', 'X-Api-Key') } as unknown as Headers,
    ];
    for (const form of headerForms) {
      seen = createDeferred();
      await (await nodeHttpFetch(`${url}/v1/messages`, { method: 'POST', headers: form, body: '{}' })).text();
      expect((await seen.promise).headers['x-api-key']).toBe('sk-test');
    }
    expect(request.method).toBe('POST');
    expect(request.body).toBe('{"text":"naïve ✓"}');
    expect(request.headers['content-length']).toBe(String(Buffer.byteLength('{"text":"naïve ✓"}')));
    expect(request.headers['x-api-key']).toBe('sk-test');
    // Nothing asks for compression: the provider's stream arrives as it is sent.
    expect(request.headers['accept-encoding']).toBeUndefined();
    expect(request.headers['transfer-encoding']).toBeUndefined();
    expect({ status: response.status, statusText: response.statusText, ok: response.ok, url: response.url }).toEqual({
      status: 201,
      statusText: 'Made',
      ok: true,
      url: `${url}/v1/messages`,
    });
    expect(response.headers.get('X-REQUEST-ID')).toBe('req_1');
    expect(response.headers.get('vary')).toBe('a, b');
    expect(response.headers.get('missing')).toBeNull();
    expect([...response.headers.entries()].map(([name]) => name)).toContain('x-request-id');
    expect(await response.json()).toEqual({ ok: 'é' });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow('already read');
  });

  it('hands a streamed body on chunk by chunk as the server writes it', async () => {
    const next = createDeferred<void>();
    const { url } = await serve((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: one\n\n');
      void next.promise.then(() => response.end('data: two\n\n'));
    });
    const response = await nodeHttpFetch(url, { method: 'POST', body: '{}' });
    const iterator = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    // The first event is readable while the server still holds the second.
    expect(Buffer.from((await iterator.next()).value as Uint8Array).toString()).toBe('data: one\n\n');
    next.resolve();
    expect(Buffer.from((await iterator.next()).value as Uint8Array).toString()).toBe('data: two\n\n');
    expect((await iterator.next()).done).toBe(true);
  });

  it('keeps the connection for the next request', async () => {
    const { url, connections } = await serve((_request, body, response) => response.end(`echo ${body}`));
    expect(await (await nodeHttpFetch(url, { method: 'POST', body: 'a' })).text()).toBe('echo a');
    expect(await (await nodeHttpFetch(url, { method: 'POST', body: 'b' })).text()).toBe('echo b');
    expect(connections()).toBe(1);
  });

  it('names the path of a redirect on the same server (no query), a missing /v1 being the usual cause', async () => {
    const { url } = await serve((_request, _body, response) => {
      response.writeHead(301, { location: '/v1/messages/?key=secret-key' });
      response.end();
    });
    const error = await nodeHttpFetch(`${url}/v1/messages`, { method: 'POST', body: '{}' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'RedirectRefused', status: 301, target: `${url}/v1/messages/` });
    expect((error as Error).message).not.toContain('secret-key');
  });

  it('refuses a redirect to another server, naming only its origin (no path, no query), and never follows it', async () => {
    let followed = 0;
    const target = await serve((_request, _body, response) => {
      followed++;
      response.end('followed');
    });
    const { url } = await serve((_request, _body, response) => {
      response.writeHead(308, { location: `${target.url}/v1/messages?token=secret-token` });
      response.end();
    });
    const error = await nodeHttpFetch(`${url}/v1/messages`, { method: 'POST', body: '{}' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedirectRefused);
    expect((error as RedirectRefused).status).toBe(308);
    expect((error as Error).message).toBe(`${url} answered 308, a redirect to ${target.url}, which is not followed`);
    expect((error as Error).message).not.toContain('secret-token');
    expect(followed).toBe(0);
  });

  it('ends a request still waiting for its response on a stop: AbortError, the reason as its cause, the connection closed', async () => {
    const arrived = createDeferred<void>();
    const closed = createDeferred<void>();
    const { url } = await serve((request) => {
      request.socket.once('close', () => closed.resolve());
      arrived.resolve();
    });
    const controller = new AbortController();
    const pending = nodeHttpFetch(url, { method: 'POST', body: '{}', signal: controller.signal });
    await arrived.promise;
    const reason = { kind: 'user' };
    controller.abort(reason);
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'AbortError', cause: reason });
    await closed.promise;
  });

  it('ends a body being read on a stop with an AbortError, and closes the connection', async () => {
    const closed = createDeferred<void>();
    const { url } = await serve((request, _body, response) => {
      request.socket.once('close', () => closed.resolve());
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: one\n\n');
    });
    const controller = new AbortController();
    const response = await nodeHttpFetch(url, { method: 'POST', body: '{}', signal: controller.signal });
    const iterator = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await iterator.next();
    controller.abort();
    await expect(iterator.next()).rejects.toMatchObject({ name: 'AbortError' });
    await closed.promise;
  });

  it.each([false, true])(
    'lets go of a body nobody read when the request is stopped (compressed: %s): nothing thrown, the connection closed',
    async (compressed) => {
      const closed = createDeferred<void>();
      const { url } = await serve((request, _body, response) => {
        request.socket.once('close', () => closed.resolve());
        response.writeHead(200, { 'content-type': 'text/event-stream', ...(compressed ? { 'content-encoding': 'gzip' } : {}) });
        response.write(compressed ? gzipSync('data: one\n\n').subarray(0, 12) : 'data: one\n\n');
      });
      const controller = new AbortController();
      await nodeHttpFetch(url, { method: 'POST', body: '{}', signal: controller.signal });
      // An 'error' on a stream without a listener would be an uncaught exception, which fails this run.
      controller.abort();
      await closed.promise;
    },
  );

  it('sends nothing when the signal is already stopped', async () => {
    let requests = 0;
    const { url } = await serve((_request, _body, response) => {
      requests++;
      response.end();
    });
    const controller = new AbortController();
    controller.abort();
    await expect(nodeHttpFetch(url, { method: 'POST', body: '{}', signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(requests).toBe(0);
  });

  it('fails a body whose connection is cut with a network error the adapters read as a cut stream', async () => {
    const { url } = await serve((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: one\n\n', () => response.socket?.destroy());
    });
    const response = await nodeHttpFetch(url, { method: 'POST', body: '{}' });
    const error = await chunksOf(response.body as unknown as AsyncIterable<Uint8Array>).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'ECONNRESET' });
    expect(isTransportOrParseFailure(error)).toBe(true);
  });

  it('rejects with the network error when nothing listens', async () => {
    const { url } = await serve(() => {});
    const closed = servers.pop()!;
    closed.closeAllConnections();
    await new Promise((resolve) => closed.close(resolve));
    await expect(nodeHttpFetch(url, { method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('decompresses a body a proxy compressed though nothing asked it to', async () => {
    const { url } = await serve((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      response.end(gzipSync('data: {"text":"compressed"}\n\n'));
    });
    const response = await nodeHttpFetch(url, { method: 'POST', body: '{}' });
    expect((await chunksOf(response.body as unknown as AsyncIterable<Uint8Array>)).join('')).toBe('data: {"text":"compressed"}\n\n');
  });

  it('reads at most maxBufferedBodyBytes of a body it buffers', async () => {
    const { url } = await serve((_request, _body, response) => {
      response.writeHead(500, { 'content-type': 'text/html' });
      response.end(Buffer.alloc(maxBufferedBodyBytes + 1, 'x'));
    });
    const response = await nodeHttpFetch(url, { method: 'POST', body: '{}' });
    await expect(response.text()).rejects.toThrow(`the response from ${url} is larger than 8 MB, so it was not read`);
  });

  it('speaks HTTPS, checking the certificate against the trusted ones', async () => {
    const tls = path.join(import.meta.dirname, '../support/tls');
    const cert = readFileSync(path.join(tls, 'localhost-cert.pem'), 'utf8');
    const server = createTlsServer({ key: readFileSync(path.join(tls, 'localhost-key.pem'), 'utf8'), cert });
    const { url } = await serve((_request, body, response) => response.end(`secure ${body}`), server);
    expect(url.startsWith('https://')).toBe(true);
    // Not trusted: refused, as any client refuses a certificate nobody vouches for.
    await expect(nodeHttpFetch(url, { method: 'POST', body: 'x' })).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    const trusted = tlsAgent.options.ca;
    tlsAgent.options.ca = cert;
    try {
      expect(await (await nodeHttpFetch(url, { method: 'POST', body: 'x' })).text()).toBe('secure x');
    } finally {
      tlsAgent.options.ca = trusted;
      tlsAgent.destroy();
    }
  });

  it('refuses what it does not send: a Request, a streamed body, another scheme', async () => {
    await expect(nodeHttpFetch(new Request('http://127.0.0.1:9/'))).rejects.toThrow('takes a URL, not a Request');
    await expect(nodeHttpFetch('http://127.0.0.1:9/', { method: 'POST', body: new ReadableStream() })).rejects.toThrow('a string or bytes');
    await expect(nodeHttpFetch('file:///etc/passwd')).rejects.toThrow('cannot fetch file: addresses');
  });
});
