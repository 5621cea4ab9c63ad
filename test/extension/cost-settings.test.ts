/**
 * Cost in the extension, through the real team and SDK: `agentTeam.modelPrices` from the user's settings
 * prices the run (a folder's prices do not count: it could price its models at nothing), the status bar
 * shows what the run under way has cost so far, and `agentTeam.budgetUsd` stops a run that spends more.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockProviderServer, startMockProviderServer, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let server: MockProviderServer;
let extension: ActivatedExtension;
const usage = { inputTokens: 1_000_000, outputTokens: 100_000 };
const assistantTurns = (body: unknown) =>
  ((body as { messages?: Array<{ role: string }> }).messages ?? []).filter((message) => message.role === 'assistant').length;

beforeEach(async () => {
  server = await startMockProviderServer();
});

afterEach(async () => {
  await extension.cleanup();
  await server.close();
});

function start(userSettings: Record<string, unknown>, workspaceSettings: Record<string, unknown> = {}) {
  extension = activateExtension({
    files: { 'notes.txt': 'hello\n' },
    userSettings: {
      'agentTeam.provider': 'openai',
      'agentTeam.baseUrl': server.openaiBaseUrl,
      'agentTeam.model': 'house-model',
      ...userSettings,
    },
    workspaceSettings,
  });
}

async function research(): Promise<string> {
  const rootId = (await extension.execute('agentTeam.delegate', 'Read the notes', { role: 'researcher' })) as string;
  await extension.host.taskManager.wait(rootId);
  return rootId;
}

describe('cost in the extension', () => {
  it("prices the run with the user's prices, never the folder's, and shows it in the status bar while it runs", async () => {
    const statusTexts: string[] = [];
    server.respondWith((request) => {
      for (const item of fake.state.statusItems) if (item.visible) statusTexts.push(item.text);
      return assistantTurns(request.body) === 0
        ? { ...toolCallTurn([{ name: 'Read', input: { file_path: 'notes.txt' } }]), usage }
        : { ...textTurn('It says hello.'), usage };
    });
    start(
      { 'agentTeam.modelPrices': { 'openai/house-model': { input: 2, output: 10 } } },
      { 'agentTeam.modelPrices': { 'openai/house-model': { input: 0, output: 0 } } },
    );
    const rootId = await research();
    // $2 + $1 a turn, two turns.
    expect(extension.host.taskManager.get(rootId)?.treeCost).toEqual({ usd: expect.closeTo(6, 10), unpricedTokens: 0 });
    expect(statusTexts.some((text) => text.includes('1 running · $3.00'))).toBe(true);
  });

  it('stops a run over agentTeam.budgetUsd from the user\u2019s settings (a folder\u2019s larger budget does not count)', async () => {
    server.respondWith(() => ({ ...toolCallTurn([{ name: 'Read', input: { file_path: 'notes.txt' } }]), usage }));
    start(
      { 'agentTeam.modelPrices': { 'openai/house-model': { input: 2, output: 10 } }, 'agentTeam.budgetUsd': 5 },
      { 'agentTeam.budgetUsd': 1000 },
    );
    const rootId = await research();
    expect(extension.host.taskManager.get(rootId)).toMatchObject({ status: 'stopped', budgetUsd: 5, stopReason: { kind: 'budget' } });
    expect(server.requests).toHaveLength(2);
  });

  it('refuses to start a run under agentTeam.budgetUsd when the model has no price, and says how to add one', async () => {
    server.respondWith(() => ({ ...textTurn('Hello.'), usage }));
    start({ 'agentTeam.budgetUsd': 5 });
    const started = await extension.execute('agentTeam.delegate', 'Read the notes', { role: 'researcher' }).then(
      () => 'started',
      (error: unknown) => String(error),
    );
    const said = [started, ...fake.state.messages.map((message) => message.message)].join('\n');
    expect(said).toContain('openai/house-model has no price');
    expect(said).toContain('agentTeam.modelPrices');
    expect(server.requests).toHaveLength(0);
  });
});
