/**
 * OpenTelemetry in the extension, through the real team and SDK: `agentTeam.otlpEndpoint` from the user's
 * settings sends the run's spans to a collector in the test; a folder's endpoint is not used (it would send
 * the user's work where the folder chooses).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockProviderServer, startMockProviderServer, textTurn } from '../support/mock-provider/index.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let server: MockProviderServer;
let collector: Server;
let endpoint: string;
let bodies: string[];
let extension: ActivatedExtension | undefined;

beforeEach(async () => {
  server = await startMockProviderServer();
  server.respondWith(() => textTurn('Hello.'));
  bodies = [];
  collector = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      bodies.push(body);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await extension?.cleanup();
  extension = undefined;
  await server.close();
  collector.closeAllConnections();
  await new Promise<void>((resolve) => collector.close(() => resolve()));
});

async function runOnce(userSettings: Record<string, unknown>, workspaceSettings: Record<string, unknown> = {}): Promise<void> {
  extension = activateExtension({
    userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl, ...userSettings },
    workspaceSettings,
  });
  const rootId = (await extension.execute('agentTeam.delegate', 'Say hello', { role: 'researcher' })) as string;
  await extension.host.taskManager.wait(rootId);
  // Closing the window flushes what is pending.
  await extension.cleanup();
  extension = undefined;
}

describe('OpenTelemetry in the extension', () => {
  it("sends the run's spans to the user's collector", async () => {
    await runOnce({ 'agentTeam.otlpEndpoint': endpoint });
    // Deactivation waits for the export: the spans are there when it returns.
    expect(bodies.join('\n')).toContain('invoke_agent researcher');
    expect(bodies.join('\n')).toContain('"gen_ai.operation.name"');
    expect(bodies.join('\n')).not.toContain('Say hello');
  });

  it("does not use a folder's endpoint", async () => {
    await runOnce({}, { 'agentTeam.otlpEndpoint': endpoint });
    expect(bodies).toEqual([]);
  });
});
