/** WebFetch's rules where the data enters: addresses after DNS, site patterns, the size cap, the deadline, the question. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeferred } from '../../src/engine/util/deferred.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { domainAllowed, domainPattern, namedLiterally, readableRule } from '../../src/engine/web/domain-rules.js';
import { isPrivateAddress } from '../../src/engine/web/network-addresses.js';
import { BlockedAddressError, requestPage } from '../../src/engine/web/page-request.js';
import { createWebFetchTool } from '../../src/engine/web/web-fetch-tool.js';
import type { DomainDecision, WebHost } from '../../src/engine/web/web-host.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<number> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function tool(host: Partial<WebHost>) {
  return createWebFetchTool({
    host: { allowedDomains: () => [], howToAllow: 'Allow it.', ...host },
    taskId: 't1',
    role: 'researcher',
    waitForUser: (waitedFor) => waitedFor(),
  });
}

const noSignal = () => ({ signal: new AbortController().signal, toolCallId: 'c1' });

describe('addresses', () => {
  it.each([
    ['127.0.0.1'],
    ['10.1.2.3'],
    ['172.20.0.1'],
    ['192.168.1.1'],
    ['169.254.169.254'],
    ['100.64.0.1'],
    ['0.0.0.0'],
    ['::1'],
    ['::ffff:127.0.0.1'],
    ['fe80::1'],
    ['fd00::1'],
    ['not an address'],
  ])('%s is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([['8.8.8.8'], ['140.82.112.3'], ['2606:4700:4700::1111']])('%s is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('refuses a name that resolves to a loopback address, on the connection itself', async () => {
    const port = await serve((_request, response) => response.end('secret'));
    const outcome = requestPage(new URL(`http://localhost:${port}/`), {
      signal: new AbortController().signal,
      maxBytes: 1024,
      privateAllowed: false,
    });
    await expect(outcome).rejects.toThrow(BlockedAddressError);
    await expect(outcome).rejects.toThrow(/localhost resolves to (127\.0\.0\.1|::1), a private or loopback address/);
  });
});

describe('site patterns', () => {
  const at = (address: string) => new URL(address);

  it('match a host, its subdomains with *., every host with *; a private literal only by name', () => {
    expect(domainAllowed(at('https://docs.example.com/'), ['example.com'])).toBe(false);
    expect(domainAllowed(at('https://docs.example.com/'), ['*.example.com'])).toBe(true);
    expect(domainAllowed(at('https://example.com/'), ['*.example.com'])).toBe(true);
    expect(domainAllowed(at('https://evilexample.com/'), ['*.example.com'])).toBe(false);
    expect(domainAllowed(at('https://Example.COM./'), ['example.com'])).toBe(true);
    expect(namedLiterally(at('http://127.0.0.1/'), ['*'])).toBe(false);
    expect(namedLiterally(at('http://[::1]/'), ['::1'])).toBe(true);
    expect(namedLiterally(at('http://[::1]/'), ['[::1]'])).toBe(true);
  });

  it('include the port: none named is the scheme’s default only; host:port is that port; * is every port', () => {
    expect(domainAllowed(at('https://docs.example.com/'), ['docs.example.com'])).toBe(true);
    expect(domainAllowed(at('http://docs.example.com/'), ['docs.example.com'])).toBe(true);
    expect(domainAllowed(at('https://docs.example.com:8080/'), ['docs.example.com'])).toBe(false);
    expect(domainAllowed(at('http://docs.example.com:443/'), ['docs.example.com'])).toBe(false);
    expect(domainAllowed(at('https://docs.example.com:8080/'), ['docs.example.com:8080'])).toBe(true);
    expect(domainAllowed(at('https://docs.example.com/'), ['docs.example.com:8080'])).toBe(false);
    // The default port named explicitly is that port, for either scheme.
    expect(domainAllowed(at('https://docs.example.com/'), ['docs.example.com:443'])).toBe(true);
    expect(domainAllowed(at('https://a.example.com:8443/'), ['*.example.com'])).toBe(false);
    expect(domainAllowed(at('https://a.example.com:8443/'), ['*.example.com:8443'])).toBe(true);
    expect(domainAllowed(at('https://a.example.com:9999/'), ['*'])).toBe(true);
    expect(namedLiterally(at('http://127.0.0.1:5432/'), ['127.0.0.1'])).toBe(false);
    expect(namedLiterally(at('http://127.0.0.1:5432/'), ['127.0.0.1:5432'])).toBe(true);
    expect(namedLiterally(at('http://[::1]:8080/'), ['[::1]:8080'])).toBe(true);
    expect(namedLiterally(at('http://[::1]:8080/'), ['::1'])).toBe(false);
    // A rule that cannot be read allows nothing (and the CLI refuses it: readableRule).
    for (const unreadable of [
      'example.com:http',
      'example.com:0',
      'example.com:70000',
      'https://example.com',
      '',
      'a b.com',
      'user@example.com',
    ]) {
      expect(domainAllowed(at('https://example.com/'), [unreadable])).toBe(false);
      expect(readableRule(unreadable)).toBe(false);
    }
    for (const readable of ['example.com', 'example.com:8080', '*.example.com', '*', '::1', '[::1]:8080'])
      expect(readableRule(readable)).toBe(true);
  });

  it('name a site by its host, and its port when not the default', () => {
    expect(domainPattern(at('https://Docs.Example.com/x'))).toBe('docs.example.com');
    expect(domainPattern(at('http://127.0.0.1:8080/'))).toBe('127.0.0.1:8080');
    expect(domainPattern(at('http://[::1]:8080/'))).toBe('[::1]:8080');
    expect(domainPattern(at('http://[::1]/'))).toBe('[::1]');
    // What "Always" stores allows the site it was asked for, and no other port.
    expect(domainAllowed(at('http://[::1]:8080/'), [domainPattern(at('http://[::1]:8080/'))])).toBe(true);
    expect(domainAllowed(at('http://[::1]:8081/'), [domainPattern(at('http://[::1]:8080/'))])).toBe(false);
  });
});

describe('the fetch', () => {
  it('stops a compressed body at the cap after decompression (a zip bomb reads no further)', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
    const port = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      response.end(bomb);
    });
    const page = await requestPage(new URL(`http://127.0.0.1:${port}/`), {
      signal: new AbortController().signal,
      maxBytes: 1024 * 1024,
      privateAllowed: true,
    });
    expect(page.cut).toBe(true);
    expect(page.body.length).toBe(1024 * 1024);
  });

  it('gives up on a server that sends headers and then nothing, at 30 s on the injected clock', async () => {
    const requested = createDeferred<void>();
    const port = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('a');
      requested.resolve();
    });
    const clock = new ManualClock();
    const fetching = tool({ allowedDomains: () => [`127.0.0.1:${port}`], clock }).execute(
      { url: `http://127.0.0.1:${port}/slow` },
      noSignal(),
    );
    const outcome = fetching.then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await requested.promise;
    await clock.advance(30_000);
    expect(await outcome).toBe('127.0.0.1:' + port + ' sent no whole page within 30 s');
  });

  it('asks about a site no pattern allows: a denial is an error the agent reads, "once" fetches', async () => {
    const port = await serve((_request, response) => response.end('hello'));
    const asked: string[] = [];
    const answer = (decision: DomainDecision) => async (request: { host: string }) => {
      asked.push(request.host);
      return decision;
    };
    const url = `http://127.0.0.1:${port}/`;
    await expect(tool({ ask: answer('deny') }).execute({ url }, noSignal())).rejects.toThrow(
      `the user did not allow reading 127.0.0.1:${port}`,
    );
    expect(await tool({ ask: answer('once') }).execute({ url }, noSignal())).toContain('hello');
    expect(asked).toEqual([`127.0.0.1:${port}`, `127.0.0.1:${port}`]);
    // The host alone names its default port only: this port is asked about.
    await expect(tool({ allowedDomains: () => ['127.0.0.1'] }).execute({ url }, noSignal())).rejects.toThrow(
      `Not fetched: 127.0.0.1:${port} is not a site the user allows`,
    );
  });

  it('reports a redirect to another port of the same host instead of following it', async () => {
    const other = createServer((_request, response) => response.end('the other service'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const otherPort = (other.address() as AddressInfo).port;
      const port = await serve((_request, response) => response.writeHead(302, { location: `http://127.0.0.1:${otherPort}/` }).end());
      const result = await tool({ allowedDomains: () => [`127.0.0.1:${port}`] }).execute({ url: `http://127.0.0.1:${port}/` }, noSignal());
      expect(result).toBe(
        `http://127.0.0.1:${port}/ redirects to http://127.0.0.1:${otherPort}/, another site; call WebFetch with that address if you want it.`,
      );
      // Both ports allowed: the redirect stays among allowed sites and is followed.
      expect(
        await tool({ allowedDomains: () => [`127.0.0.1:${port}`, `127.0.0.1:${otherPort}`] }).execute(
          { url: `http://127.0.0.1:${port}/` },
          noSignal(),
        ),
      ).toContain('the other service');
    } finally {
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('refuses what is not a web address, and addresses with credentials', async () => {
    await expect(tool({}).execute({ url: 'file:///etc/passwd' }, noSignal())).rejects.toThrow(
      'only http and https addresses are fetched, not file:',
    );
    await expect(tool({ allowedDomains: () => ['*'] }).execute({ url: 'https://user:pw@example.com/' }, noSignal())).rejects.toThrow(
      'user name or password',
    );
  });
});
