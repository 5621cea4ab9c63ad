/**
 * One HTTP(S) GET for WebFetch, with the limits where the data enters: the address checked after DNS on
 * the very connection made (no second lookup to rebind), at most `maxBytes` of body after decompression
 * (a zip bomb stops there), no redirect followed here (the tool decides), and the request destroyed the
 * moment the signal aborts.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { bareHost, isPrivateAddress } from './network-addresses.js';
import { AgentTeamError } from '../errors.js';

export interface PageResponse {
  status: number;
  contentType: string;
  /** Set for a 3xx with a Location: the absolute address it points to. */
  redirect?: string;
  body: Buffer;
  /** True when the body went on past `maxBytes` and was cut there. */
  cut: boolean;
}

export interface PageRequestOptions {
  signal: AbortSignal;
  maxBytes: number;
  /** True when this host may be a private or loopback address (the user named it literally). */
  privateAllowed: boolean;
}

export class BlockedAddressError extends AgentTeamError {
  override readonly name: string = 'BlockedAddressError';
  readonly code = 'blocked-address';
}

export function requestPage(url: URL, options: PageRequestOptions): Promise<PageResponse> {
  const host = bareHost(url.hostname);
  if (isIP(host) !== 0 && isPrivateAddress(host) && !options.privateAllowed) {
    return Promise.reject(new BlockedAddressError(`${host} is a private or loopback address`));
  }
  return new Promise<PageResponse>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, {
      method: 'GET',
      headers: {
        'user-agent': 'AgentTeam-WebFetch/0.1',
        accept: 'text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.1',
        'accept-encoding': 'gzip, deflate, br',
      },
      lookup: checkedLookup(options.privateAllowed),
      signal: options.signal,
    });
    request.once('error', reject);
    request.once('response', (response) => {
      const status = response.statusCode ?? 0;
      const contentType = String(response.headers['content-type'] ?? '');
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.resume();
        request.destroy();
        resolve({ status, contentType, redirect: new URL(location, url).toString(), body: Buffer.alloc(0), cut: false });
        return;
      }
      readBody(decoded(response), options.maxBytes).then(
        ({ body, cut }) => {
          if (cut) request.destroy();
          resolve({ status, contentType, body, cut });
        },
        (error: unknown) => {
          request.destroy();
          reject(error);
        },
      );
    });
    request.end();
  });
}

/** DNS as the connection uses it, refusing the whole connection when any address is private. */
function checkedLookup(privateAllowed: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const refused = privateAllowed ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      if (refused)
        return callback(new BlockedAddressError(`${hostname} resolves to ${refused.address}, a private or loopback address`), '', 4);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 4);
      return callback(null, first.address, first.family);
    });
  };
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

async function readBody(stream: Readable, maxBytes: number): Promise<{ body: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = maxBytes - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      stream.destroy();
      return { body: Buffer.concat(chunks), cut: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), cut: false };
}
