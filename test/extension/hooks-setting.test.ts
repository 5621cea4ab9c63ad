/**
 * Hooks in the extension, through the real team and SDK: the folder's `.claude/settings.json` hook runs
 * for the agent's tool call (the agent reads why it was blocked), and `agentTeam.hooks: false` in any scope
 * turns hooks off; a folder cannot turn them back on when the user turned them off.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockProviderServer, startMockProviderServer, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let server: MockProviderServer;
let extension: ActivatedExtension;

const assistantTurns = (body: unknown) =>
  ((body as { messages?: Array<{ role: string }> }).messages ?? []).filter((message) => message.role === 'assistant').length;
const settingsFile = JSON.stringify({
  hooks: {
    PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'echo "notes.txt is off limits to agents" >&2; exit 2' }] }],
  },
});

beforeEach(async () => {
  server = await startMockProviderServer();
  server.respondWith((request) =>
    assistantTurns(request.body) === 0
      ? toolCallTurn([{ name: 'Read', input: { file_path: 'notes.txt' } }])
      : textTurn(`Read: ${request.lastMessageText}`),
  );
});

afterEach(async () => {
  await extension.cleanup();
  await server.close();
});

async function readNotes(userHooks: boolean | undefined, workspaceHooks: boolean | undefined): Promise<string> {
  extension = activateExtension({
    files: { 'notes.txt': 'the secret plan\n', '.claude/settings.json': settingsFile },
    userSettings: {
      'agentTeam.provider': 'openai',
      'agentTeam.baseUrl': server.openaiBaseUrl,
      ...(userHooks === undefined ? {} : { 'agentTeam.hooks': userHooks }),
    },
    ...(workspaceHooks === undefined ? {} : { workspaceSettings: { 'agentTeam.hooks': workspaceHooks } }),
  });
  await extension.execute('agentTeam.delegate', 'Read the notes', { role: 'researcher' });
  await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
  return server.requests[1]!.lastMessageText;
}

describe('hooks in the extension', () => {
  it("runs the folder's PreToolUse hook: the call is refused and the agent reads why", async () => {
    const result = await readNotes(undefined, undefined);
    expect(result).toContain('Not run: a PreToolUse hook (PreToolUse [Read]');
    expect(result).toContain('notes.txt is off limits to agents');
    expect(result).not.toContain('the secret plan');
  });

  it.each([
    ['the folder turns them off', undefined, false],
    ['the user turned them off, whatever the folder says', false, true],
  ])('runs none when %s', async (_why, userHooks, workspaceHooks) => {
    expect(await readNotes(userHooks, workspaceHooks)).toContain('the secret plan');
  });
});
