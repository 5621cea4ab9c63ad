/** Delegate Task's role picker: a role's limits, result shape and metadata beside where it is defined. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type MockProviderServer, startMockProviderServer } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let extension: ActivatedExtension;
let server: MockProviderServer;

afterEach(async () => {
  await extension.cleanup();
  await server.close();
});

describe('Delegate Task: the role picker', () => {
  it("shows a role's permission mode, token limit, JSON answer and metadata, short", async () => {
    server = await startMockProviderServer();
    extension = activateExtension({
      userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl },
      files: {
        '.claude/agents/scout.md':
          '---\nname: scout\ndescription: Looks around.\npermissionMode: plan\nmaxTokens: 20000\noutputSchema: {type: object}\nmetadata: {owner: platform-team}\n---\nYou look around.\n',
      },
    });
    fake.state.quickPickAnswers.push(() => undefined);
    await extension.execute('agentTeam.delegate');
    expect(server.requests).toEqual([]);
    const items = fake.state.quickPicks[0]?.items as Array<{ label: string; description?: string }>;
    const scout = items.find((item) => item.label.endsWith(' scout'));
    expect(scout?.description).toBe(
      '.claude/agents/scout.md · permission mode: plan (read-only) · token limit: 20,000 for its task and subtasks · answers with JSON (outputSchema) · metadata: owner=platform-team',
    );
    expect(items.find((item) => item.label.endsWith(' researcher'))?.description).toBe('built-in');
  });
});
