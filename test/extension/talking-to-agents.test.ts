/** Answering an agent's question and steering a running task from the sidebar, through the real team and SDK. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockProviderServer, startMockProviderServer, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { fake } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let server: MockProviderServer;
let extension: ActivatedExtension;

beforeEach(async () => {
  server = await startMockProviderServer();
  extension = activateExtension({
    files: {
      '.agent-team/agents/clarifier.md':
        '---\nname: clarifier\ndescription: Asks before it acts.\nmode: task\ntools: [Read]\n---\nYou clarify.',
    },
    userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl },
  });
});

afterEach(async () => {
  await extension.cleanup();
  await server.close();
});

const assistantTurns = (body: unknown) =>
  ((body as { messages?: Array<{ role: string }> }).messages ?? []).filter((message) => message.role === 'assistant').length;

describe('talking to agents in the extension', () => {
  it('a question shows as a notification; the Answer from the sidebar reaches the agent', async () => {
    server.respondWith((request) =>
      assistantTurns(request.body) === 0
        ? toolCallTurn([{ name: 'AskUser', input: { question: 'Which timezone?' } }])
        : textTurn(`Done: ${request.lastMessageText}`),
    );
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    const asked = fake.waitForMessage((message) => message.message.startsWith('Agent Team: clarifier (t1) asks: Which timezone?'));
    await extension.execute('agentTeam.delegate', 'Fix the dates', { role: 'clarifier' });
    const notification = await asked;
    expect(notification.items).toEqual(['Answer']);
    view.send({ type: 'send-message', taskId: 't1', text: 'UTC, always.' });
    await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
    expect(server.requests[1].lastMessageText).toBe('The user answered: UTC, always.');
  });

  it('a message to a running task reaches it at its next turn; one to a finished task says why it cannot', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    server.respondWith(async (request) => {
      if (assistantTurns(request.body) === 0) {
        await held;
        return toolCallTurn([{ name: 'Read', input: { file_path: 'missing.txt' } }]);
      }
      return textTurn(`Heard: ${request.lastMessageText.includes('Message from the user: Check the tests too.')}`);
    });
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    await extension.execute('agentTeam.delegate', 'Look around', { role: 'researcher' });
    await server.waitForRequest(0);
    view.send({ type: 'send-message', taskId: 't1', text: 'Check the tests too.' });
    await fake.waitForLog('Sent a message to t1.');
    release();
    await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
    expect(JSON.stringify(server.requests[1].body)).toContain('Message from the user: Check the tests too.');
    view.send({ type: 'send-message', taskId: 't9', text: 'Hello?' });
    await fake.waitForMessage((message) => message.message === 'Agent Team: There is no task t9.');
  });

  it('a chat goes on with each reply from the sidebar and ends with End chat', async () => {
    await extension.cleanup();
    extension = activateExtension({
      files: {
        '.agent-team/agents/writer.md': '---\nname: writer\ndescription: Drafts with you.\nmode: chat\ntools: [Read]\n---\nYou draft.',
      },
      userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': server.openaiBaseUrl },
    });
    server.respondWith((request) => textTurn(`Draft ${assistantTurns(request.body) + 1}`));
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    const firstDraft = fake.waitForMessage((message) =>
      message.message.startsWith('Agent Team: writer (t1) is waiting for your reply: Draft 1'),
    );
    await extension.execute('agentTeam.delegate', 'Write the intro', { role: 'writer' });
    await firstDraft;
    const secondDraft = fake.waitForMessage((message) => message.message.includes('is waiting for your reply: Draft 2'));
    view.send({ type: 'send-message', taskId: 't1', text: 'Shorter.' });
    await secondDraft;
    view.send({ type: 'end-chat', taskId: 't1' });
    await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].lastMessageText).toBe('Shorter.');
  });

  it('a follow-up on a finished run continues it under its root, with the conversation kept', async () => {
    server.respondWith((request) =>
      textTurn(
        assistantTurns(request.body) === 0
          ? 'The parser is in a.ts.'
          : `Follow-up, remembering: ${JSON.stringify(request.body).includes('The parser is in a.ts.')}`,
      ),
    );
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    await extension.execute('agentTeam.delegate', 'Where is the parser?', { role: 'researcher' });
    await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
    view.send({ type: 'send-message', taskId: 't1', text: 'Does it handle timezones?' });
    await fake.waitForLog('Follow-up t2 of run t1.');
    await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished') && message.message.includes('Follow-up'));
    expect(server.requests[1].lastMessageText).toBe('Does it handle timezones?');
    expect(
      view.posted.some(
        (message) =>
          (message as { type: string; outcome?: string }).type === 'message-sent' &&
          (message as { outcome?: string }).outcome === 'follow-up',
      ),
    ).toBe(true);
  });
});
