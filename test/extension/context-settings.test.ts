/**
 * The context meter and compaction in the extension, through the real team and SDK: the user's
 * `agentTeam.modelContextWindows` gives a model's window and `agentTeam.compactAt` the threshold (a
 * folder's values do not count), the status bar shows the fullest window of the tasks at work, and a task
 * past the threshold is compacted before its next request.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockProviderServer, startMockProviderServer, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let server: MockProviderServer;
let extension: ActivatedExtension;

beforeEach(async () => {
  server = await startMockProviderServer();
});

afterEach(async () => {
  await extension.cleanup();
  await server.close();
});

describe('context settings in the extension', () => {
  it("uses the user's window and threshold, never the folder's; shows the fullest window in the status bar; compacts", async () => {
    const statusTexts: string[] = [];
    let coordinatorTurns = 0;
    server.respondWith((request) => {
      for (const item of fake.state.statusItems) if (item.visible) statusTexts.push(item.text);
      if (request.system.startsWith('You summarise the earlier part')) return textTurn('SUMMARY-9');
      coordinatorTurns += 1;
      if (coordinatorTurns === 1)
        return { ...toolCallTurn([{ name: 'Read', input: { file_path: 'notes.txt' } }]), usage: { inputTokens: 6000, outputTokens: 10 } };
      return { ...textTurn('It says hello.'), usage: { inputTokens: 1000, outputTokens: 10 } };
    });
    extension = activateExtension({
      files: { 'notes.txt': 'hello\n' },
      userSettings: {
        'agentTeam.provider': 'openai',
        'agentTeam.baseUrl': server.openaiBaseUrl,
        'agentTeam.model': 'house-model',
        'agentTeam.modelContextWindows': { 'openai/house-model': 10_000 },
        'agentTeam.compactAt': 0.5,
      },
      workspaceSettings: { 'agentTeam.modelContextWindows': { 'openai/house-model': 1_000_000 }, 'agentTeam.compactAt': 0.95 },
    });
    const rootId = (await extension.execute('agentTeam.delegate', 'Read the notes', { role: 'researcher' })) as string;
    const task = await extension.host.taskManager.wait(rootId);
    expect(task.status).toBe('completed');
    // 6,000 of 10,000 at the first answer: shown, and past the user's 0.5, so compacted before the next request.
    expect(statusTexts.some((text) => text.includes('context 60 %'))).toBe(true);
    expect(server.requests[1]!.system).toMatch(/^You summarise the earlier part/);
    expect(JSON.stringify(server.requests[2]!.body)).toContain('SUMMARY-9');
    expect(task.context).toMatchObject({ windowTokens: 10_000, usedTokens: 1000 });
  });
});
