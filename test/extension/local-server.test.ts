import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probeLocalServers } from '../../src/extension/local-server.js';

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server on 127.0.0.1 answering GET /v1/models with `body` (or a status code). */
async function serve(answer: { status?: number; body?: unknown }): Promise<string> {
  const server = createServer((request, response) => {
    if (request.url !== '/v1/models') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body ?? {}));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** An address where nothing listens: a port that was just free. */
async function closedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

describe('finding a local OpenAI-compatible server', () => {
  it('takes the first candidate that lists models, with their ids', async () => {
    const nothing = await closedAddress();
    const broken = await serve({ status: 500 });
    const ollama = await serve({ body: { object: 'list', data: [{ id: 'qwen2.5-coder' }, { id: 'llama3' }, { name: 'no id' }] } });
    expect(await probeLocalServers({ candidates: [nothing, broken, ollama] })).toEqual({
      url: ollama,
      models: ['qwen2.5-coder', 'llama3'],
    });
  });

  it('finds nothing when no candidate answers like an OpenAI-compatible server', async () => {
    const nothing = await closedAddress();
    const notOpenAi = await serve({ body: { models: ['x'] } });
    expect(await probeLocalServers({ candidates: [nothing, notOpenAi] })).toBeUndefined();
  });
});
