import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { readSettings } from '../../src/extension/configuration.js';
import { restrictedModeMessage } from '../../src/extension/trust.js';
import { type HostMessage } from '../../src/shared/protocol.js';
import { startMockProviderServer, textTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const manifest = JSON.parse(readFileSync(nodePath.join(__dirname, '../../package.json'), 'utf8')) as {
  contributes: { commands: Array<{ command: string }> };
};
/** Commands that only show something may run in Restricted Mode; everything else must refuse. */
const readOnly = new Set(['agentTeam.showTask', 'agentTeam.copyPrompt']);
const refusing = manifest.contributes.commands.map((entry) => entry.command).filter((command) => !readOnly.has(command));

/** Arguments that would make each command act at once, without asking, if it did not refuse. */
const actingArguments: Record<string, unknown[]> = {
  'agentTeam.delegate': ['Delete everything', { role: 'refactorer' }],
  'agentTeam.stopTask': ['t1'],
  'agentTeam.resumeRun': ['t1'],
  'agentTeam.reviewChanges': ['t1'],
  'agentTeam.setApiKey': ['openai'],
  'agentTeam.acceptFile': ['t1', 'src/app.ts'],
  'agentTeam.rejectFile': ['t1', 'src/app.ts'],
  'agentTeam.acceptHunk': ['t1', 'src/app.ts', 'hunk'],
  'agentTeam.rejectHunk': ['t1', 'src/app.ts', 'hunk'],
};

let extension: ActivatedExtension | undefined;

afterEach(async () => {
  await extension?.cleanup();
  extension = undefined;
});

describe('Restricted Mode', () => {
  it.each(refusing)('%s refuses with the reason and a way to trust the folder, also through executeCommand', async (command) => {
    extension = activateExtension({ trusted: false, userSettings: { 'agentTeam.baseUrl': 'http://127.0.0.1:9/v1' } });
    const result = await extension.execute(command, ...(actingArguments[command] ?? []));
    expect(result).toBeUndefined();
    expect(fake.state.messages).toEqual([
      { kind: 'warning', message: restrictedModeMessage, items: ['Manage Workspace Trust'], modal: false },
    ]);
    expect(fake.state.quickPicks).toEqual([]);
    expect(fake.state.inputBoxes).toEqual([]);
    expect(fake.state.progress).toEqual([]);
    expect(fake.state.builtinCommands).toEqual([]);
    expect(extension.context.secrets.values.size).toBe(0);
  });

  it('opens the trust editor from the refusal', async () => {
    extension = activateExtension({ trusted: false });
    fake.state.messageAnswers.push((message) => message.items[0]);
    await extension.execute('agentTeam.stopAll');
    await flushMicrotasks();
    expect(fake.state.builtinCommands.map((entry) => entry.command)).toEqual(['workbench.trust.manage']);
  });

  it('ignores provider, base URL, model and role models from workspace settings while untrusted', async () => {
    extension = activateExtension({
      trusted: false,
      userSettings: { 'agentTeam.model': 'user-model' },
      workspaceSettings: {
        'agentTeam.provider': 'openai',
        'agentTeam.baseUrl': 'https://attacker.example/v1',
        'agentTeam.model': 'workspace-model',
        'agentTeam.roleModels': { researcher: 'workspace-role-model' },
        'agentTeam.maxDepth': 1,
      },
    });
    const untrusted = readSettings(false);
    expect(untrusted).toMatchObject({ provider: undefined, baseUrl: '', model: 'user-model', roleModels: {}, maxDepth: 1 });
    const trusted = readSettings(true);
    expect(trusted).toMatchObject({
      provider: 'openai',
      baseUrl: 'https://attacker.example/v1',
      model: 'workspace-model',
      roleModels: { researcher: 'workspace-role-model' },
    });

    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    const snapshot = (await view.waitFor((message) => (message as HostMessage).type === 'snapshot')) as HostMessage & { type: 'snapshot' };
    // The workspace's base URL would have made the model "configured" without a key; untrusted, it does not count.
    expect(snapshot.setup).toEqual({ modelConfigured: false, restricted: true });
  });

  it('takes delegationReach from the user settings only, even in a trusted folder', async () => {
    extension = activateExtension({ trusted: true, workspaceSettings: { 'agentTeam.delegationReach': 'any' } });
    expect(readSettings(true).delegationReach).toBe('own-tools');
    await extension.cleanup();
    extension = activateExtension({ trusted: true, userSettings: { 'agentTeam.delegationReach': 'any' } });
    expect(readSettings(true).delegationReach).toBe('any');
  });

  it('starts working when trust is granted, without a reload', async () => {
    const server = await startMockProviderServer();
    try {
      extension = activateExtension({
        trusted: false,
        userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl },
      });
      const view = await fake.resolveView();
      view.send({ type: 'ready' });
      await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
      expect(await extension.execute('agentTeam.delegate', 'Say hello')).toBeUndefined();

      fake.grantTrust();
      const update = (await view.waitFor((message) => (message as HostMessage).type === 'setup-state')) as HostMessage & {
        type: 'setup-state';
      };
      expect(update.setup.restricted).toBe(false);
      server.enqueue(textTurn('Hello.'));
      const taskId = await extension.execute('agentTeam.delegate', 'Say hello', { role: 'researcher' });
      expect(taskId).toMatch(/^t\d+$/);
      await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
      expect(server.requests).toHaveLength(1);
    } finally {
      await extension?.cleanup();
      extension = undefined;
      await server.close();
    }
  });
});
