/**
 * What a role in VS Code may name beyond the engine's tools, through the real team and SDK: a tool another
 * extension registered (`vscode.lm.tools`) as `vscode__<tool>`, called with `vscode.lm.invokeTool`, never our
 * own delegate tool; and a `.vscode/mcp.json` server whose header needs an `${input:…}`: its first use asks
 * (the command approval's notification), the input box asks for the token (typed hidden), and the server
 * gets it. (An untrusted folder starting none: test/cli/cli-mcp-configured.test.ts and the capability's tests.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHttpMcpServer, type HttpMcpServer } from '../support/mcp-http-test-server.js';
import { type MockProviderServer, startMockProviderServer, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { languageModels, LanguageModelTextPart, LanguageModelToolResult } from './support/fake-language-models.js';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let server: MockProviderServer;
let http: HttpMcpServer;
let extension: ActivatedExtension;

const assistantTurns = (body: unknown) =>
  ((body as { messages?: Array<{ role: string }> }).messages ?? []).filter((message) => message.role === 'assistant').length;
const role = (tools: string) =>
  `---\nname: finder\ndescription: Finds things.\ntools: ${tools}\n---\nYou find things with the tools you have.\n`;

function start(files: Record<string, string>) {
  extension = activateExtension({ files, userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl } });
}

beforeEach(async () => {
  server = await startMockProviderServer();
  http = await startHttpMcpServer();
});

afterEach(async () => {
  await extension.cleanup();
  await server.close();
  await http.close();
});

describe("VS Code's registered tools", () => {
  it('a role naming vscode__<tool> gets that tool (not ours, not others) and calls it through vscode.lm.invokeTool', async () => {
    start({ '.claude/agents/finder.md': role('Read, vscode__other_findFiles') });
    const calls: unknown[] = [];
    languageModels.toolInfos.push({
      name: 'other_findFiles',
      description: 'Finds files by pattern.',
      inputSchema: { type: 'object', properties: { pattern: { type: 'string' } } },
      tags: [],
    });
    languageModels.toolInfos.push({ name: 'other_unrelated', description: 'Not named.', tags: [] });
    languageModels.tools.set('other_findFiles', {
      invoke: async (options: unknown) => (
        calls.push((options as { input: unknown }).input),
        new LanguageModelToolResult([new LanguageModelTextPart('found: a.txt, b.txt')])
      ),
    });
    server.respondWith((request) => {
      if (assistantTurns(request.body) === 0) {
        expect(request.toolNames.filter((name) => name.startsWith('vscode__'))).toEqual(['vscode__other_findFiles']);
        return toolCallTurn([{ name: 'vscode__other_findFiles', input: { pattern: '*.txt' } }]);
      }
      return textTurn(`Result: ${request.lastMessageText}`);
    });
    await extension.execute('agentTeam.delegate', 'Find the text files', { role: 'finder' });
    await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
    expect(calls).toEqual([{ pattern: '*.txt' }]);
    expect(server.requests[1]!.lastMessageText).toBe('found: a.txt, b.txt');
  });
});

describe('.vscode/mcp.json in VS Code', () => {
  const files = () => ({
    '.claude/agents/finder.md': role('Read, mcp__keyed__shout'),
    '.vscode/mcp.json': `{\n  "inputs": [{ "type": "promptString", "id": "token", "description": "The API token", "password": true }],\n  "servers": { "keyed": { "type": "http", "url": "${http.url}", "headers": { "Authorization": "Bearer \${input:token}" } } },\n}`,
  });

  it('its first use asks, the input box asks for the token (hidden), and the server gets it', async () => {
    start(files());
    fake.state.messageAnswers.push((shown) => (shown.message.includes('wants to run') ? 'Allow once' : undefined));
    fake.state.inputBoxAnswers.push(() => 'tok-123');
    server.respondWith((request) =>
      assistantTurns(request.body) === 0
        ? toolCallTurn([{ name: 'mcp__keyed__shout', input: { text: 'hi' } }])
        : textTurn(`Said: ${request.lastMessageText}`),
    );
    await extension.execute('agentTeam.delegate', 'Shout', { role: 'finder' });
    await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
    const asked = fake.state.messages.find((message) => message.message.includes('wants to run'));
    expect(asked?.message).toContain(`${http.url} (headers: Authorization)`);
    expect(fake.state.inputBoxes).toEqual([
      expect.objectContaining({ title: "MCP server 'keyed' (.vscode/mcp.json)", prompt: 'The API token', password: true }),
    ]);
    expect(http.seen).toContain('Bearer tok-123');
    expect(server.requests[1]!.lastMessageText).toBe('HI');
    // The token never reaches the model or a message.
    expect(JSON.stringify(server.requests.map((request) => request.body))).not.toContain('tok-123');
  });
});
