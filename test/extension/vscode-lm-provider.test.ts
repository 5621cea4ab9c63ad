/**
 * Provider `vscode-lm`: a model VS Code offers runs the team with no key, through the extension's own
 * commands and the real engine; its requests, its errors and a stop, as the user meets them.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskSnapshot } from '../../src/engine/tasks/index.js';
import { agentOfChat, chatTurn, lastMessageText, messageText, priorChatTurns, untilCancelled } from './support/chat-turns.js';
import {
  fake,
  FakeChatModel,
  languageModels,
  LanguageModelChatMessageRole,
  LanguageModelChatToolMode,
  LanguageModelError,
  LanguageModelToolCallPart,
  LanguageModelToolResultPart,
} from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let extension: ActivatedExtension | undefined;

afterEach(async () => {
  await extension?.cleanup();
  extension = undefined;
});

function ended(taskId: string): Promise<TaskSnapshot> {
  return extension!.host.taskManager.wait(taskId);
}

describe('provider vscode-lm', () => {
  it('with no key and no provider chosen, runs the coordinator and a subagent on the model VS Code offers', async () => {
    const model = new FakeChatModel(
      'copilot-gpt-5',
      (request) => {
        if (agentOfChat(request) === 'researcher') return chatTurn('Dates are parsed in src/parse.ts:3.');
        if (priorChatTurns(request) === 0) {
          return chatTurn('Let me ask the researcher.', [
            { name: 'Agent', input: { subagent_type: 'researcher', description: 'Find date parsing', prompt: 'Where are dates parsed?' } },
          ]);
        }
        return chatTurn(`Answer: ${lastMessageText(request).includes('src/parse.ts:3') ? 'src/parse.ts:3' : 'not found'}`);
      },
      'GPT-5 (Copilot)',
      'copilot',
      'gpt-5',
    );
    extension = activateExtension({ files: { 'src/parse.ts': 'export const parse = (text: string) => new Date(text);\n' } });
    languageModels.offer(model);
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    await view.waitFor((message) => {
      const setup = (message as { setup?: { modelConfigured: boolean; provider?: string; model?: string } }).setup;
      return setup?.modelConfigured === true && setup.provider === 'vscode-lm' && setup.model === 'GPT-5 (Copilot)';
    });

    const rootId = (await extension.execute('agentTeam.delegate', 'Where are dates parsed?')) as string;
    const root = await ended(rootId);
    expect(root).toMatchObject({ status: 'completed', output: 'Answer: src/parse.ts:3', model: 'vscode-lm/copilot-gpt-5' });
    expect(root.treeUsage.inputTokens).toBeGreaterThan(0);

    // What VS Code was handed: the instruction first, the tools with automatic tool mode, a justification.
    const first = model.requests[0]!;
    expect(first.messages[0]!.role).toBe(LanguageModelChatMessageRole.User);
    expect(messageText(first.messages[0]!)).toContain('You are the coordinator');
    expect(messageText(first.messages[1]!)).toContain('Where are dates parsed?');
    expect(first.options.toolMode).toBe(LanguageModelChatToolMode.Auto);
    expect(first.options.tools!.map((tool) => tool.name)).toEqual(expect.arrayContaining(['Agent', 'TaskOutput', 'Read']));
    expect(first.options.justification).toContain('Agent Team');
    // The call and its result travel as the API's parts, paired by id.
    const answerTurn = model.requests.at(-1)!;
    const call = answerTurn.messages
      .flatMap((message) => message.content)
      .find((part) => part instanceof LanguageModelToolCallPart) as LanguageModelToolCallPart;
    const result = answerTurn.messages
      .flatMap((message) => message.content)
      .find((part) => part instanceof LanguageModelToolResultPart) as LanguageModelToolResultPart;
    expect(call).toMatchObject({ name: 'Agent', input: { subagent_type: 'researcher' } });
    expect(result.callId).toBe(call.callId);
    expect(model.requests.filter((request) => agentOfChat(request) === 'researcher')).toHaveLength(1);
  });

  it('names the model it runs on as agentTeam.model says, by id, family or name', async () => {
    const small = new FakeChatModel('mini-1', () => chatTurn('from mini'), 'Mini', 'vendor-a', 'mini');
    const large = new FakeChatModel('large-1', () => chatTurn('from large'), 'Large', 'vendor-b', 'large');
    extension = activateExtension({
      userSettings: { 'agentTeam.provider': 'vscode-lm', 'agentTeam.model': 'large', 'agentTeam.roleModels': { researcher: 'Mini' } },
    });
    languageModels.offer(small, large);
    const coordinatorRun = await ended((await extension.execute('agentTeam.delegate', 'Hello')) as string);
    expect(coordinatorRun).toMatchObject({ status: 'completed', output: 'from large', model: 'vscode-lm/large-1' });
    const researcherRun = await ended((await extension.execute('agentTeam.delegate', 'Hello', { role: 'researcher' })) as string);
    expect(researcherRun).toMatchObject({ status: 'completed', output: 'from mini', model: 'vscode-lm/mini-1' });
  });

  it('a role file written for another provider (model: sonnet) runs on the chosen model instead of failing', async () => {
    const model = new FakeChatModel('gpt-5', () => chatTurn('checked'));
    extension = activateExtension({
      files: { '.agent-team/agents/checker.md': '---\nname: checker\ndescription: Checks.\nmodel: sonnet\ntools: [Read]\n---\nYou check.' },
      userSettings: { 'agentTeam.provider': 'vscode-lm' },
    });
    languageModels.offer(model);
    const run = await ended((await extension.execute('agentTeam.delegate', 'Check it', { role: 'checker' })) as string);
    expect(run).toMatchObject({ status: 'completed', output: 'checked', model: 'vscode-lm/gpt-5' });
  });

  it.each([
    [
      'NoPermissions',
      LanguageModelError.NoPermissions('The user did not consent.'),
      /did not let Agent Team use the language model "Copilot"[^]*Allow it when VS Code asks/,
    ],
    ['Blocked', LanguageModelError.Blocked('Quota exceeded.'), /"Copilot" refused the request \(quota or rate limit\): Quota exceeded/],
    ['NotFound', LanguageModelError.NotFound('Model removed.'), /"Copilot" is no longer available: Model removed[^]*Select Model/],
    ['another error', new Error('socket hang up'), /"Copilot" failed: socket hang up/],
  ])('%s from the API fails the task with a sentence that says what to do', async (_name, error, message) => {
    extension = activateExtension({ userSettings: { 'agentTeam.provider': 'vscode-lm' } });
    languageModels.offer(new FakeChatModel('copilot', () => error, 'Copilot'));
    const run = await ended((await extension.execute('agentTeam.delegate', 'Hello', { role: 'researcher' })) as string);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(message);
  });

  it('with vscode-lm chosen and no model in VS Code, says how to get one instead of starting', async () => {
    extension = activateExtension({ userSettings: { 'agentTeam.provider': 'vscode-lm' } });
    const started = await extension.execute('agentTeam.delegate', 'Hello');
    expect(started).toBeUndefined();
    expect(fake.state.messages.at(-1)!.message).toMatch(/no model to run/);
  });

  it('a model appearing later (Copilot signing in) turns the sidebar from setup to ready, offering it first meanwhile', async () => {
    extension = activateExtension({ userSettings: { 'agentTeam.provider': 'anthropic' } });
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    await view.waitFor((message) => (message as { type: string }).type === 'snapshot');
    languageModels.offer(new FakeChatModel('copilot-sonnet', () => chatTurn('hi'), 'Claude Sonnet (Copilot)'));
    // Anthropic was chosen and has no key: VS Code's model is offered, not silently used.
    await view.waitFor(
      (message) =>
        (message as { setup?: { languageModel?: string; modelConfigured: boolean } }).setup?.languageModel === 'Claude Sonnet (Copilot)',
    );
    view.send({ type: 'use-language-model' });
    await fake.waitForMessage((message) => message.message === 'Agent Team now uses Claude Sonnet (Copilot) from VS Code (no key needed).');
    expect(fake.state.settings.global.get('agentTeam.provider')).toBe('vscode-lm');
    expect(fake.state.settings.global.get('agentTeam.model')).toBe('copilot-sonnet');
    await view.waitFor((message) => {
      const setup = (message as { setup?: { modelConfigured: boolean; model?: string } }).setup;
      return setup?.modelConfigured === true && setup.model === 'Claude Sonnet (Copilot)';
    });
  });

  it('Stop cancels the request VS Code is serving', async () => {
    const model = new FakeChatModel('copilot', (request) => untilCancelled(request), 'Copilot');
    extension = activateExtension({ userSettings: { 'agentTeam.provider': 'vscode-lm' } });
    languageModels.offer(model);
    const rootId = (await extension.execute('agentTeam.delegate', 'Think forever', { role: 'researcher' })) as string;
    await model.waitForRequests(1);
    await extension.execute('agentTeam.stopTask', rootId);
    const run = await ended(rootId);
    expect(run.status).toBe('stopped');
    expect(model.requests[0]!.token.isCancellationRequested).toBe(true);
  });

  it('a model that never starts answering fails after the request timeout, on the injected clock', async () => {
    const model = new FakeChatModel('copilot', (request) => untilCancelled(request), 'Copilot');
    extension = activateExtension({ userSettings: { 'agentTeam.provider': 'vscode-lm' } });
    languageModels.offer(model);
    const rootId = (await extension.execute('agentTeam.delegate', 'Hello', { role: 'researcher' })) as string;
    await model.waitForRequests(1);
    await extension.clock.advance(300_000);
    const run = await ended(rootId);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/"copilot" stopped answering for 300 s/i);
    expect(model.requests[0]!.token.isCancellationRequested).toBe(true);
  });
});
