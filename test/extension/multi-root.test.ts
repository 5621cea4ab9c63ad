/**
 * A workspace of several folders: the agents work in the folder the user picks (asked once for the
 * window) or, with an editor open, in that editor's folder; never silently the first folder.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockProviderServer, startMockProviderServer, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { fake, Position, Selection, Uri } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let server: MockProviderServer;
let extension: ActivatedExtension;
let second: string;

beforeEach(async () => {
  server = await startMockProviderServer();
  extension = activateExtension({
    files: { 'notes.txt': 'first folder\n' },
    userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl, 'agentTeam.model': 'gpt-5-mini' },
  });
  second = nodePath.join(extension.base, 'second');
  mkdirSync(second, { recursive: true });
  writeFileSync(nodePath.join(second, 'notes.txt'), 'second folder\n');
  fake.state.folders.push({ uri: Uri.file(second), name: 'second', index: 1 });
  server.respondWith((request) =>
    (request.body as { messages?: unknown[] }).messages!.length <= 2
      ? toolCallTurn([{ name: 'Read', input: { file_path: 'notes.txt' } }])
      : textTurn('Read it.'),
  );
});

afterEach(async () => {
  await extension.cleanup();
  await server.close();
});

async function delegateAndRead(): Promise<string> {
  const taskId = (await extension.execute('agentTeam.delegate', 'Read the notes', { role: 'researcher' })) as string;
  await extension.host.taskManager.wait(taskId);
  return JSON.stringify(server.requests.at(-1)?.body);
}

describe('multi-root workspaces', () => {
  it('asks which folder, offering each, and works in the one picked', async () => {
    fake.state.quickPickAnswers.push(({ items, options }) => {
      expect(options.title).toBe('Agent Team: Which Folder?');
      expect(items.map((item) => item.label)).toEqual(['workspace', 'second']);
      return items[1];
    });
    const read = await delegateAndRead();
    expect(read).toContain('second folder');
    expect(read).not.toContain('first folder');
    expect(extension.host.folder()?.name).toBe('second');
    // Asked once for the window: the next run works there too, without asking.
    await delegateAndRead();
    expect(fake.state.quickPickAnswers).toHaveLength(0);
    expect(fake.state.quickPicks.filter((pick) => pick.options.title === 'Agent Team: Which Folder?')).toHaveLength(1);
  });

  it('works in the active editor\u2019s folder without asking', async () => {
    const document = {
      uri: Uri.file(nodePath.join(second, 'notes.txt')),
      getText: () => readFileSync(nodePath.join(second, 'notes.txt'), 'utf8'),
    };
    fake.state.activeTextEditor = { document: document as never, selection: new Selection(new Position(0, 0), new Position(0, 0)) };
    const read = await delegateAndRead();
    expect(read).toContain('second folder');
    expect(fake.state.quickPicks).toHaveLength(0);
  });

  it('starts nothing when the pick is dismissed, and says why', async () => {
    fake.state.quickPickAnswers.push(() => undefined);
    await extension.execute('agentTeam.delegate', 'Read the notes', { role: 'researcher' }).catch(() => undefined);
    expect(server.requests).toHaveLength(0);
    expect(fake.state.messages.at(-1)?.message).toContain('No folder was chosen');
  });
});
