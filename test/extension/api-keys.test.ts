import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type HostMessage } from '../../src/shared/protocol.js';
import { type MockProviderServer, startMockProviderServer, textTurn, unauthorized } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { type FakeWebviewView } from './support/fake-webview.js';
import { activateExtension, type ActivatedExtension, everythingShown } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const key = 'sk-test-7f3a9c2e51b84d06a1e4';

let server: MockProviderServer;
let extension: ActivatedExtension | undefined;

beforeEach(async () => {
  server = await startMockProviderServer({ apiKey: key });
});

afterEach(async () => {
  await extension?.cleanup();
  extension = undefined;
  await server.close();
});

async function openSidebar(): Promise<FakeWebviewView> {
  const view = await fake.resolveView();
  view.send({ type: 'ready' });
  await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
  return view;
}

async function setKeyThroughTheCommand(active: ActivatedExtension): Promise<void> {
  fake.state.quickPickAnswers.push(({ items }) => items.find((item) => item.label === 'OpenAI'));
  fake.state.inputBoxAnswers.push((options) => {
    expect(options.password).toBe(true);
    return key;
  });
  await active.execute('agentTeam.setApiKey');
}

describe('API keys', () => {
  it('stores the key in SecretStorage only, sends it to the provider, and never to the webview, the log or a notification', async () => {
    extension = activateExtension({ userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl } });
    const view = await openSidebar();
    await setKeyThroughTheCommand(extension);
    expect(extension.context.secrets.values.get('agentTeam.apiKey.openai')).toBe(key);
    expect([...fake.state.settings.global.values(), ...fake.state.settings.workspace.values()].map(String)).not.toContain(key);

    // The model echoes the key back: whatever a provider or model says, the key must not reach the view.
    server.enqueue(textTurn(`Done. By the way, your key is ${key}.`));
    const taskId = (await extension.execute('agentTeam.delegate', 'Say hello', { role: 'researcher' })) as string;
    expect(taskId).toMatch(/^t\d+$/);
    view.send({ type: 'select-task', taskId });
    await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
    await extension.clock.advance(50);

    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${key}`);
    const shown = everythingShown(view.posted);
    expect(shown).toContain('[redacted]');
    expect(shown).not.toContain(key);
    const completed = view
      .ofType<HostMessage & { type: 'task-upsert' }>('task-upsert')
      .flatMap((message) => message.tasks)
      .filter((task) => task.status === 'completed');
    expect(completed.map((task) => task.id)).toContain(taskId);
  });

  it('keeps the key out of everything when the provider rejects it and quotes it back', async () => {
    extension = activateExtension({ userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl } });
    const view = await openSidebar();
    await setKeyThroughTheCommand(extension);
    server.enqueue(unauthorized({ message: `Incorrect API key provided: ${key}.` }));
    const taskId = (await extension.execute('agentTeam.delegate', 'Say hello', { role: 'researcher' })) as string;
    view.send({ type: 'select-task', taskId });
    const failure = await fake.waitForMessage((message) => message.kind === 'error' && message.message.includes('failed'));
    expect(failure.items).toContain('Set API Key');
    await extension.clock.advance(50);
    const shown = everythingShown(view.posted);
    expect(shown).toContain('Incorrect API key provided: [redacted]');
    expect(shown).not.toContain(key);
  });

  it('fails fast with a way to set a key when there is neither a key nor a base URL', async () => {
    extension = activateExtension();
    const result = await extension.execute('agentTeam.delegate', 'Say hello');
    expect(result).toBeUndefined();
    const error = fake.state.messages.find((message) => message.kind === 'error');
    expect(error?.message).toMatch(/no model to run: set an API key/);
    expect(error?.items).toEqual(expect.arrayContaining(['Set API Key']));
    expect(fake.state.progress).toEqual([]);
    expect(server.requests).toEqual([]);
  });

  it('makes the key\u2019s provider the one in use when none was chosen, and falls back to the environment', async () => {
    extension = activateExtension({ environment: { ANTHROPIC_API_KEY: 'sk-ant-from-the-environment-000' } });
    const view = await openSidebar();
    const snapshot = view.ofType<HostMessage & { type: 'snapshot' }>('snapshot')[0];
    expect(snapshot.setup).toMatchObject({ modelConfigured: true, provider: 'anthropic' });
    await setKeyThroughTheCommand(extension);
    expect(fake.state.settings.global.get('agentTeam.provider')).toBe('openai');
    expect(everythingShown(view.posted)).not.toContain('sk-ant-from-the-environment-000');
  });
});
