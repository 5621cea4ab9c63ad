/**
 * WebFetch through the CLI, over both SDKs against the mock provider: a page from a local HTTP server,
 * as Markdown, once its literal address and port are allowed; refused for a site not allowed, and for 127.0.0.1
 * under a wildcard; another port of an allowed host refused; a redirect to another host or port reported,
 * not followed; a page that never ends is cut.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'README.md': '# Demo\n' });
let site: Server;
let origin: string;
/** The site's rule: its host and port (the host alone names port 80 only). */
let siteRule: string;

beforeEach(async () => {
  site = createServer((request, response) => {
    if (request.url === '/docs') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        '<html><head><title>t</title><script>steal()</script></head><body><h1>Parser API</h1><p>Call <code>parse(text)</code>.</p></body></html>',
      );
    } else if (request.url === '/moved') {
      response.writeHead(302, { location: `http://localhost:${(site.address() as AddressInfo).port}/docs` });
      response.end();
    } else if (request.url === '/other-port') {
      response.writeHead(302, { location: 'http://127.0.0.1:1/docs' });
      response.end();
    } else if (request.url === '/endless') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const line = `${'data '.repeat(200)}\n`;
      const write = () => {
        while (response.write(line)) if (response.destroyed) return;
        response.once('drain', write);
      };
      response.on('error', () => undefined);
      write();
    } else {
      response.writeHead(404).end('no such page');
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  siteRule = `127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterEach(async () => {
  site.closeAllConnections();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

async function fetchThroughCli(protocol: MockProtocol, url: string, flags: string[]) {
  world.server.respondWith((request) =>
    priorTurns(request) === 0 ? toolCallTurn([{ name: 'WebFetch', input: { url, prompt: 'the parser API' } }]) : textTurn('Read it.'),
  );
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  const run = await startCli(
    world.cliPath,
    ['run', '--json', '--agent', 'researcher', '--workspace', world.workspace, ...provider.args, ...flags, 'How is the parser called?'],
    provider.env,
  ).exited;
  expect(run.code).toBe(0);
  return world.server.requests[1]!.lastMessageText;
}

describe.each<MockProtocol>(['anthropic', 'openai'])('WebFetch (%s)', (protocol) => {
  it('reads an allowed page as Markdown, without what a reader does not see', async () => {
    const result = await fetchThroughCli(protocol, `${origin}/docs`, ['--allow-domain', siteRule]);
    expect(result).toContain(`# ${origin}/docs`);
    expect(result).toContain('# Parser API');
    expect(result).toContain('Call `parse(text)`.');
    expect(result).not.toContain('steal()');
  });

  it('refuses a site that is not allowed, saying how to allow it', async () => {
    const result = await fetchThroughCli(protocol, `${origin}/docs`, []);
    expect(result).toContain(`Not fetched: ${siteRule} is not a site the user allows. The user allows sites with --allow-domain <host>`);
    expect(result).not.toContain('Parser API');
  });

  it('refuses another port of an allowed host: the host alone is its default port only', async () => {
    const result = await fetchThroughCli(protocol, `${origin}/docs`, ['--allow-domain', '127.0.0.1', '--allow-domain', '127.0.0.1:1']);
    expect(result).toContain(`Not fetched: ${siteRule} is not a site the user allows.`);
    expect(result).not.toContain('Parser API');
  });
});

describe('WebFetch limits', () => {
  it('does not reach 127.0.0.1 under a wildcard: a private address must be named', async () => {
    const result = await fetchThroughCli('anthropic', `${origin}/docs`, ['--allow-domain', '*']);
    expect(result).toContain('Not fetched: 127.0.0.1 is a private or loopback address');
    expect(result).not.toContain('Parser API');
  });

  it('reports a redirect to another host instead of following it', async () => {
    const result = await fetchThroughCli('openai', `${origin}/moved`, ['--allow-domain', siteRule]);
    expect(result).toContain(`${origin}/moved redirects to http://localhost:`);
    expect(result).toContain('another site; call WebFetch with that address if you want it.');
    expect(result).not.toContain('Parser API');
  });

  it('reports a redirect to another port of the same host instead of following it', async () => {
    const result = await fetchThroughCli('anthropic', `${origin}/other-port`, ['--allow-domain', siteRule]);
    expect(result).toContain(
      `${origin}/other-port redirects to http://127.0.0.1:1/docs, another site; call WebFetch with that address if you want it.`,
    );
  });

  it('refuses an --allow-domain that names no site, saying what one looks like', async () => {
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const run = await startCli(
      world.cliPath,
      [
        'run',
        '--agent',
        'researcher',
        '--workspace',
        world.workspace,
        '--allow-domain',
        'https://docs.example.com',
        ...provider.args,
        'Read',
      ],
      provider.env,
    ).exited;
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '--allow-domain https://docs.example.com: not a site; give a host (docs.example.com), a host and port (docs.example.com:8080), *.example.com or *',
    );
    expect(world.server.requests).toHaveLength(0);
  });

  it('cuts a page that never ends at 2 MB, and the run goes on', async () => {
    const result = await fetchThroughCli('anthropic', `${origin}/endless`, ['--allow-domain', siteRule]);
    expect(result).toContain('data data');
    // The page stopped at 2 MB where it entered (then the loop keeps a result's first 64 KiB, saying so).
    const total = Number(/output truncated to its first \d+ of (\d+) bytes/.exec(result)?.[1]);
    expect(total).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    expect(total).toBeLessThan(2 * 1024 * 1024 + 1024);
  });
});
