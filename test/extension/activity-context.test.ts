/** Context keys for `when` clauses and the view's badge, as tasks run and proposals wait. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockProviderServer, startMockProviderServer, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let server: MockProviderServer;
let extension: ActivatedExtension;

beforeEach(async () => {
  server = await startMockProviderServer();
  extension = activateExtension({ files: { 'a.ts': 'const a = 1;\n' }, userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl } });
});

afterEach(async () => {
  await extension.cleanup();
  await server.close();
});

describe('activity context', () => {
  it('hasRunningTasks and the badge follow the tasks at work; hasPendingChanges the proposals waiting', async () => {
    await extension.host.historyLoaded;
    const view = await fake.resolveView();
    expect(fake.state.contextKeys.get('agentTeam.hasRunningTasks')).toBe(false);
    expect(fake.state.contextKeys.get('agentTeam.hasPendingChanges')).toBe(false);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    server.enqueue(async () => {
      await held;
      return toolCallTurn([{ name: 'Edit', input: { file_path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' } }]);
    }, textTurn('Changed.'));
    const taskId = (await extension.execute('agentTeam.delegate', 'Change a', { role: 'refactorer' })) as string;
    await server.waitForRequest(0);
    expect(fake.state.contextKeys.get('agentTeam.hasRunningTasks')).toBe(true);
    expect((view as unknown as { badge?: { value: number; tooltip: string } }).badge).toEqual({ value: 1, tooltip: '1 Agent Team task at work' });
    release();
    await extension.host.taskManager.wait(taskId);
    expect(fake.state.contextKeys.get('agentTeam.hasRunningTasks')).toBe(false);
    expect((view as unknown as { badge?: unknown }).badge).toBeUndefined();
    expect(fake.state.contextKeys.get('agentTeam.hasPendingChanges')).toBe(true);
    await extension.execute('agentTeam.rejectFile', taskId, 'a.ts');
    expect(fake.state.contextKeys.get('agentTeam.hasPendingChanges')).toBe(false);
  });
});
