/**
 * `WebFetch` in the extension, through the real team and SDK: a site no setting allows is asked about in
 * a notification; Always for this workspace remembers it (the next fetch does not ask); Deny refuses it
 * with a result the agent reads; `agentTeam.allowedDomains` from the folder's settings does not count.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockProviderServer, startMockProviderServer, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let server: MockProviderServer;
let site: Server;
let url: string;
let extension: ActivatedExtension;

const assistantTurns = (body: unknown) =>
  ((body as { messages?: Array<{ role: string }> }).messages ?? []).filter((message) => message.role === 'assistant').length;

beforeEach(async () => {
  server = await startMockProviderServer();
  site = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Release notes</h1><p>Version 2 is out.</p>'),
  );
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/notes`;
  server.respondWith((request) =>
    assistantTurns(request.body) === 0
      ? toolCallTurn([{ name: 'WebFetch', input: { url } }])
      : textTurn(`Read: ${request.lastMessageText}`),
  );
});

afterEach(async () => {
  await extension.cleanup();
  await server.close();
  site.closeAllConnections();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

function start(workspaceSettings: Record<string, unknown> = {}) {
  extension = activateExtension({
    userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl },
    ...(Object.keys(workspaceSettings).length > 0 ? { workspaceSettings } : {}),
  });
}

async function research(task: string): Promise<string> {
  await extension.execute('agentTeam.delegate', task, { role: 'researcher' });
  const finished = await fake.waitForMessage(
    (message) => message.message.startsWith('Agent Team finished') && message.message.includes(task),
  );
  return finished.message;
}

describe('WebFetch in the extension', () => {
  it('asks about a site; Always for this workspace remembers it, so the next fetch does not ask', async () => {
    start({ 'agentTeam.allowedDomains': ['*'] });
    fake.state.messageAnswers.push((shown) => (shown.message.includes('wants to read') ? 'Always for this workspace' : undefined));
    await research('Read the notes');
    const asked = fake.state.messages.filter((message) => message.message.includes('wants to read'));
    // The folder's own allowedDomains did not count: the user was asked.
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toContain(`from 127.0.0.1`);
    expect(asked[0]!.items).toEqual(['Allow once', 'Always for this workspace', 'Deny']);
    expect(server.requests[1]!.lastMessageText).toContain('# Release notes');
    // The site with its port: "Always" for one port of a host is not every service on that host.
    expect(extension.context.workspaceState.get('agentTeam.allowedDomains.workspace')).toEqual([new URL(url).host]);

    await research('Read the notes again');
    expect(fake.state.messages.filter((message) => message.message.includes('wants to read'))).toHaveLength(1);
    expect(server.requests.at(-1)!.lastMessageText).toContain('Version 2 is out.');
  });

  it('Deny refuses the fetch with a result the agent reads', async () => {
    start();
    fake.state.messageAnswers.push((shown) => (shown.message.includes('wants to read') ? 'Deny' : undefined));
    await research('Read the notes');
    expect(server.requests[1]!.lastMessageText).toContain('Not fetched: the user did not allow reading 127.0.0.1');
    expect(server.requests[1]!.lastMessageText).not.toContain('Release notes');
  });
});
