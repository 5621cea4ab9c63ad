/** Select Model…: every model Agent Team can run on, VS Code's first, and the choice saved in user settings. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatTurn } from './support/chat-turns.js';
import { fake, FakeChatModel, languageModels } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let extension: ActivatedExtension | undefined;

afterEach(async () => {
  await extension?.cleanup();
  extension = undefined;
});

type Item = { label: string; description?: string; detail?: string; kind?: number };

describe('Select Model…', () => {
  it('lists VS Code\u2019s models first, then the providers with their key state; picking one saves it', async () => {
    extension = activateExtension({ environment: { OPENAI_API_KEY: 'sk-test' } });
    languageModels.offer(
      new FakeChatModel('copilot-gpt-5', () => chatTurn('x'), 'GPT-5', 'copilot', 'gpt-5'),
      new FakeChatModel('claude-1', () => chatTurn('x'), 'Claude', 'copilot', 'claude'),
    );
    let shown: Item[] = [];
    fake.state.quickPickAnswers.push(({ items }) => {
      shown = items as Item[];
      return items.find((item) => item.label === '$(sparkle) Claude');
    });
    await extension.execute('agentTeam.selectModel');
    expect(shown.map((item) => item.label)).toEqual([
      'VS Code language models (no API key)',
      '$(sparkle) GPT-5',
      '$(sparkle) Claude',
      'Providers with an API key',
      '$(key) Anthropic',
      '$(key) OpenAI',
    ]);
    expect(shown.find((item) => item.label === '$(key) OpenAI')!.description).toBe('key set');
    expect(shown.find((item) => item.label === '$(key) Anthropic')!.description).toBe('needs a key');
    expect(fake.state.settings.global.get('agentTeam.provider')).toBe('vscode-lm');
    expect(fake.state.settings.global.get('agentTeam.model')).toBe('claude-1');
    expect(fake.state.messages.at(-1)!.message).toBe('Agent Team now uses Claude from VS Code.');
  });

  it('a provider that needs a key asks for the model id, then for the key', async () => {
    extension = activateExtension();
    fake.state.quickPickAnswers.push(({ items }) => items.find((item) => item.label === '$(key) Anthropic'));
    fake.state.inputBoxAnswers.push((options) => {
      expect(options.placeHolder).toBe('claude-sonnet-5-5');
      return 'claude-haiku-4-5';
    });
    // Set API Key: the password box.
    fake.state.inputBoxAnswers.push(() => 'sk-ant-test');
    await extension.execute('agentTeam.selectModel');
    expect(fake.state.settings.global.get('agentTeam.provider')).toBe('anthropic');
    expect(fake.state.settings.global.get('agentTeam.model')).toBe('claude-haiku-4-5');
    expect(fake.state.inputBoxes.at(-1)!.password).toBe(true);
  });

  it('without any VS Code model, says how to get one; Escape changes nothing', async () => {
    extension = activateExtension();
    let shown: Item[] = [];
    fake.state.quickPickAnswers.push(({ items }) => {
      shown = items as Item[];
      return undefined;
    });
    await extension.execute('agentTeam.selectModel');
    expect(shown[1]!.label).toBe('$(info) VS Code offers no language model');
    expect(fake.state.settings.global.has('agentTeam.provider')).toBe(false);
  });
});
