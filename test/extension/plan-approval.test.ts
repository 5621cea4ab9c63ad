/**
 * `agentTeam.approvePlan` and the todo list in VS Code, through `@team` (the participant's handler, with the
 * real team on a scripted VS Code model) and the sidebar's Answer: the plan shows in the chat and waits;
 * nothing starts until the user answers; a folder's setting cannot turn the user's approval off.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentOfChat, chatTurn, lastMessageText, priorChatTurns } from './support/chat-turns.js';
import { CancellationTokenSource, fake, FakeChatModel, type FakeChatResponder, languageModels } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let extension: ActivatedExtension | undefined;

afterEach(async () => {
  await extension?.cleanup();
  extension = undefined;
});

const plan = [
  { content: 'Find the parser', status: 'in_progress', activeForm: 'Finding the parser' },
  { content: 'Explain it', status: 'pending', activeForm: 'Explaining it' },
];

const coordinator: FakeChatResponder = (request) => {
  if (agentOfChat(request) === 'researcher') return chatTurn('The parser is in src/parse.ts.');
  if (priorChatTurns(request) === 0) return chatTurn('', [{ name: 'TodoWrite', input: { todos: plan } }]);
  if (priorChatTurns(request) === 1)
    return chatTurn('', [
      { name: 'Agent', input: { subagent_type: 'researcher', description: 'Find the parser', prompt: 'Where is the parser?' } },
    ]);
  return chatTurn(`Answer after: ${lastMessageText(request).slice(0, 40)}`);
};

function chat(settings: { userSettings?: Record<string, unknown>; workspaceSettings?: Record<string, unknown> }) {
  extension = activateExtension(settings);
  const model = new FakeChatModel('copilot-gpt-5', coordinator, 'GPT-5 (Copilot)');
  languageModels.offer(model);
  const participant = languageModels.participants.get('agentTeam.team')!;
  const parts: Array<{ kind: string; value: string }> = [];
  const stream = {
    progress: (value: string) => parts.push({ kind: 'progress', value }),
    markdown: (value: string | { value: string }) =>
      parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value }),
    button: (command: { title: string }) => parts.push({ kind: 'button', value: command.title }),
  };
  const result = participant.handler(
    { prompt: 'Where is the parser?', model, references: [] },
    { history: [] },
    stream,
    new CancellationTokenSource().token,
  ) as Promise<{ errorDetails?: { message: string } }>;
  return {
    parts,
    result,
    text: () =>
      parts
        .filter((part) => part.kind === 'markdown')
        .map((part) => part.value)
        .join(''),
  };
}

describe('plan approval in VS Code', () => {
  it('@team shows the todo list and the plan question; nothing starts until the Answer approves it', async () => {
    // The folder says false: it cannot turn off the approval the user asked for.
    const run = chat({ userSettings: { 'agentTeam.approvePlan': true }, workspaceSettings: { 'agentTeam.approvePlan': false } });
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    await vi.waitFor(() => expect(run.text()).toContain('waits for you to approve its plan before any subagent starts'), {
      timeout: 5_000,
    });
    expect(run.text()).toContain('**Plan** of coordinator (0/2 done):\n- \u25b8 Finding the parser\n- \u25cb Explain it');
    expect(run.parts).toContainEqual({ kind: 'button', value: 'Approve or Change the Plan' });
    expect(run.parts.filter((part) => part.kind === 'progress')).toEqual([]);
    view.send({ type: 'send-message', taskId: 't1', text: 'approve' });
    const outcome = await run.result;
    expect(outcome.errorDetails).toBeUndefined();
    expect(run.parts).toContainEqual({ kind: 'progress', value: 'researcher: Find the parser' });
  });

  it('off (the default), the run goes on without asking and still shows its todo list', async () => {
    const run = chat({});
    const outcome = await run.result;
    expect(outcome.errorDetails).toBeUndefined();
    expect(run.text()).not.toContain('approve its plan');
    expect(run.text()).toContain('**Plan** of coordinator (0/2 done)');
  });
});
