/** Remove API Key…, and agentTeam.maxConcurrentTasks applied without a reload. */
import { describe, expect, it, vi } from 'vitest';
import { textTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const world = useExtensionWorld();

describe('settings that apply at once', () => {
  it('Remove API Key… deletes the stored key and says when the environment still has one', async () => {
    const extension = await world.reactivate({ environment: { OPENAI_API_KEY: 'sk-from-environment' } });
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
    const extension = await world.reactivate({ userSettings: { 'agentTeam.maxConcurrentTasks': 1 } });
    const server = world.server;
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
