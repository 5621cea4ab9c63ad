/** Remove API Key…, and agentTeam.maxConcurrentTasks applied without a reload. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockProviderServer, startMockProviderServer, textTurn } from '../support/mock-provider/index.js';
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

describe('settings that apply at once', () => {
  it('Remove API Key… deletes the stored key and says when the environment still has one', async () => {
    extension = activateExtension({ environment: { OPENAI_API_KEY: 'sk-from-environment' } });
    await extension.host.keys.store('anthropic', 'sk-ant-stored');
    await extension.host.keys.store('openai', 'sk-openai-stored');
    fake.state.quickPickAnswers.push(({ items }) => {
      expect(items.map((item) => item.label)).toEqual(['Anthropic', 'OpenAI']);
      return items[1];
    });
    await extension.execute('agentTeam.removeApiKey');
    expect(fake.state.messages.at(-1)!.message).toBe('Removed the stored OpenAI API key. The key from the environment is still used.');
    await extension.execute('agentTeam.removeApiKey');
    expect(fake.state.messages.at(-1)!.message).toBe('Removed the Anthropic API key.');
    expect(await extension.host.keys.get('anthropic')).toBeUndefined();
    await extension.execute('agentTeam.removeApiKey');
    expect(fake.state.messages.at(-1)!.message).toMatch(/^No API key is stored in VS Code/);
  });

  it('a higher agentTeam.maxConcurrentTasks starts a waiting task at once', async () => {
    extension = activateExtension({ userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl, 'agentTeam.maxConcurrentTasks': 1 }, environment: { OPENAI_API_KEY: 'k' } });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    server.respondWith(async () => {
      await held;
      return textTurn('Done.');
    });
    const first = (await extension.execute('agentTeam.delegate', 'One', { role: 'researcher' })) as string;
    const second = (await extension.execute('agentTeam.delegate', 'Two', { role: 'researcher' })) as string;
    await server.waitForRequest(0);
    expect(extension.host.taskManager.get(second)!.status).toBe('queued');
    const { workspace } = await import('vscode');
    await workspace.getConfiguration('agentTeam').update('maxConcurrentTasks', 2, true);
    await server.waitForRequest(1);
    expect(extension.host.taskManager.get(second)!.status).toBe('running');
    release();
    await extension.host.taskManager.wait(first);
    await extension.host.taskManager.wait(second);
  });
});
