import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * The most a buffered body (`text()`, `json()`, `arrayBuffer()`) may be: an SDK reads one for an error
 * answer or a response that is not streamed, and a misconfigured server must not fill memory with it.
 */
export const maxBufferedBodyBytes = 8 * 1024 * 1024;

/**
 * A response of `nodeHttpFetch`, with what the SDKs read of a fetch `Response`: the status, the headers,
 * the body as an async iterable of bytes (a Node stream, which the SDKs read as it is), or all of it at
 * once. The body can be read once.
 */
export class HttpResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = 'basic';
  readonly headers: ResponseHeaders;
  private used = false;

  constructor(
    readonly url: string,
    incoming: IncomingMessage,
    readonly body: Readable,
  ) {
    this.status = incoming.statusCode ?? 0;
    this.statusText = incoming.statusMessage ?? '';
    this.ok = this.status >= 200 && this.status < 300;
    this.headers = new ResponseHeaders(incoming.headers);
  }

  get bodyUsed(): boolean {
    return this.used;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  private async bytes(): Promise<Buffer> {
    if (this.used) throw new TypeError('the response body was already read');
    this.used = true;
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of this.body) {
      const bytes = chunk as Buffer;
      length += bytes.length;
      if (length > maxBufferedBodyBytes) {
        this.body.destroy();
        throw new Error(
          `the response from ${new URL(this.url).origin} is larger than ${maxBufferedBodyBytes / 1024 / 1024} MB, so it was not read`,
        );
      }
      chunks.push(bytes);
    }
    return Buffer.concat(chunks, length);
  }
}

/**
 * A response's headers as fetch's `Headers` reads them: names in lower case, a repeated header's values
 * joined with `, ` (`set-cookie` too: no model API sets cookies). Read-only.
 */
export class ResponseHeaders {
  constructor(private readonly fields: IncomingHttpHeaders) {}

  get(name: string): string | null {
    return joined(this.fields[name.toLowerCase()]) ?? null;
  }

  has(name: string): boolean {
    return this.fields[name.toLowerCase()] !== undefined;
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of this.entries()) callback(value, name);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.fields).sort()) {
      const value = joined(this.fields[name]);
      if (value !== undefined) yield [name, value];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
