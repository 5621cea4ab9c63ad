/** `agentTeam.budgetTokens`: a run that spends more stops, whole tree, and the sidebar shows spend and why. */
import { describe, expect, it, vi } from 'vitest';
import type { HostMessage } from '../../src/shared/protocol.js';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const world = useExtensionWorld();

describe('token budgets in the extension', () => {
  it('agentTeam.budgetTokens stops the run once spent, keeps its partial output, and the sidebar shows spend and budget', async () => {
    const extension = await world.reactivate({ files: { 'a.txt': 'a' }, userSettings: { 'agentTeam.budgetTokens': 250 } });
    const server = world.server;
    // Every turn costs 100 tokens and asks for another read: the third turn takes the run over 250.
    server.respondWith(() => ({
      ...toolCallTurn([{ name: 'Read', input: { file_path: 'a.txt' } }], 'Reading again.'),
      usage: { inputTokens: 80, outputTokens: 20 },
    }));
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    const rootId = (await extension.execute('agentTeam.delegate', 'Read forever', { role: 'researcher' })) as string;
    const root = await extension.host.taskManager.wait(rootId);
    expect(root.status).not.toBe('completed');
    expect(root.budgetTokens).toBe(250);
    expect(root.treeUsage.inputTokens + root.treeUsage.outputTokens).toBe(300);
    expect(`${root.error ?? ''}${root.stopReason ? JSON.stringify(root.stopReason) : ''}`).toMatch(/budget/);
    expect(root.output).toContain('Reading again.');
    expect(server.requests).toHaveLength(3);
    await extension.clock.advance(100);
    const upserts = view.ofType<HostMessage & { type: 'task-upsert' }>('task-upsert').flatMap((message) => message.tasks);
    expect(upserts.filter((task) => task.id === rootId).at(-1)).toMatchObject({ budgetTokens: 250 });
  });

  it('a budget given with the command wins over the setting; none set means no budget', async () => {
    const { extension, server } = world;
    server.respondWith(() => textTurn('Done.'));
    const unlimited = await extension.host.taskManager.wait(
      (await extension.execute('agentTeam.delegate', 'Hi', { role: 'researcher' })) as string,
    );
    expect(unlimited.budgetTokens).toBeUndefined();
    const limited = await extension.host.taskManager.wait(
      (await extension.execute('agentTeam.delegate', 'Hi', { role: 'researcher', budgetTokens: 1000 })) as string,
    );
    expect(limited).toMatchObject({ status: 'completed', budgetTokens: 1000 });
  });
});
