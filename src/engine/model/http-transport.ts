import http from 'node:http';
import https from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { onAbort } from '../abort.js';
import { HttpResponse } from './http-response.js';
import { RedirectRefused } from './redirect-refused.js';

/**
 * The model SDKs' HTTP: a `fetch` (the SDKs' `fetch` option) over Node's `http` and `https` modules, with
 * their global keep-alive agents, instead of the WHATWG fetch Node bundles.
 *
 * Why: a streamed model response read through Node's fetch pays for web streams around every chunk, a
 * `Response` and a `Headers` of its own. Over `http` the same two requests of a subagent cost about 40 %
 * less of the extension host's thread (B2 in docs/performance.md: 3.0 → 1.9 ms of main thread per
 * two-request conversation with the bare SDK, 50 at once). It is also the module VS Code routes through
 * the user's proxy and certificates (`http.proxy`, `http.proxySupport`), as it does fetch.
 *
 * What it does and does not do, as the SDKs use it:
 * - a string or `URL` to an `http:` or `https:` address; a body that is a string or bytes (the SDKs send
 *   JSON), its `content-length` set; anything else is refused with a `TypeError`, as fetch refuses;
 * - no redirects: a 3xx answer rejects with `RedirectRefused` (the key must not travel on to wherever it
 *   points; a model API never redirects), which says where it pointed;
 * - a stop (`init.signal`) rejects a request still waiting with an `AbortError` and ends a body being read
 *   with one, as fetch does (the SDKs tell a stop from a failure by that name);
 * - no `accept-encoding` is sent; a body compressed anyway (a proxy) is decompressed;
 * - `text()`, `json()` and `arrayBuffer()` read at most `maxBufferedBodyBytes`: an error page does not
 *   fill memory. A streamed body is read as it comes, without a cap of its own.
 */
export function nodeHttpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  let url: URL;
  let body: Buffer | Uint8Array | undefined;
  try {
    url = urlOf(input);
    body = bodyOf(init.body);
  } catch (error) {
    return Promise.reject(error);
  }
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  const client = url.protocol === 'https:' ? https : http;
  const headers = headerRecord(init.headers);
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method: (init.method ?? 'GET').toUpperCase(), headers });
    let response: http.IncomingMessage | undefined;
    let content: Readable | undefined;
    const forget = signal
      ? onAbort(signal, () => {
          const error = abortError(signal);
          if (content) content.destroy(error);
          request.destroy(error);
          reject(error);
        })
      : () => {};
    // `on`, not `once`: an 'error' without a listener would throw in the extension host. After the
    // response, the body's reader gets the failure; here it is only let go.
    request.on('error', (error) => {
      forget();
      reject(error);
    });
    request.once('response', (incoming) => {
      response = incoming;
      incoming.on('error', ignore);
      const status = incoming.statusCode ?? 0;
      if (status >= 300 && status < 400 && status !== 304) {
        forget();
        incoming.resume();
        reject(new RedirectRefused(url, status, incoming.headers.location));
        return;
      }
      content = decoded(incoming);
      // A body nobody reads (a stop before the SDK looked at it) fails with no reader: Node's response
      // stream then keeps quiet, a decompressing one would throw. Its reader, if any, learns of the
      // failure from the stream itself.
      content.on('error', ignore);
      content.once('close', forget);
      resolve(new HttpResponse(url.href, incoming, content) as unknown as Response);
    });
    // A response that ended before anything read it (a 204) still lets go of the signal.
    request.once('close', () => {
      if (!response) forget();
    });
    request.end(body);
  });
}

function urlOf(input: string | URL | Request): URL {
  if (typeof input !== 'string' && !(input instanceof URL)) throw new TypeError('nodeHttpFetch takes a URL, not a Request');
  const url = new URL(input);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`nodeHttpFetch cannot fetch ${url.protocol} addresses, only http: and https:`);
  return url;
}

function bodyOf(body: RequestInit['body']): Buffer | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('nodeHttpFetch sends a string or bytes as the body, not a stream or form');
}

/**
 * Headers as Node takes them: the SDKs hand over a `Headers` (read by its `forEach`, so that one from
 * another realm or a polyfill reads the same), a plain object or pairs.
 */
function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  if (headers === undefined) return record;
  if (Array.isArray(headers)) {
    for (const [name, value] of headers) record[name!.toLowerCase()] = value!;
  } else if (typeof (headers as Headers).forEach === 'function') {
    (headers as Headers).forEach((value, name) => {
      record[name.toLowerCase()] = value;
    });
  } else {
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) record[name.toLowerCase()] = value;
  }
  return record;
}

/** The body as sent, or decompressed when a proxy compressed it though nothing asked it to. */
function decoded(response: http.IncomingMessage): Readable {
  const encoding = response.headers['content-encoding']?.trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return response;
  pipeline(response, decoder, () => {});
  return decoder;
}

function ignore(): void {}

/** What fetch rejects with on a stop: an `AbortError`, the stop's reason as its cause. */
function abortError(signal: AbortSignal): Error {
  const error = new Error('The operation was aborted', { cause: signal.reason });
  error.name = 'AbortError';
  return Object.assign(error, { code: 'ABORT_ERR' });
}
