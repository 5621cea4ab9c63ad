/**
 * `@team` in the Chat view and the `agentTeam_delegate` tool, through what VS Code calls (the participant's
 * handler, the tool's prepareInvocation and invoke) with the real team on a scripted VS Code model.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentOfChat, chatTurn, lastMessageText, priorChatTurns, untilCancelled } from './support/chat-turns.js';
import {
  CancellationTokenSource,
  ChatRequestTurn,
  ChatResponseTurn,
  fake,
  FakeChatModel,
  type FakeChatResponder,
  languageModels,
  LanguageModelTextPart,
  Location,
  Position,
  Range,
  Uri,
} from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let extension: ActivatedExtension | undefined;

afterEach(async () => {
  await extension?.cleanup();
  extension = undefined;
});

/** A chat response stream that records what the participant wrote. */
function recordingStream() {
  const parts: Array<{ kind: 'progress' | 'markdown' | 'button'; value: string; command?: { command: string; arguments?: unknown[] } }> =
    [];
  return {
    parts,
    progress: (value: string) => parts.push({ kind: 'progress', value }),
    markdown: (value: string | { value: string }) =>
      parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value }),
    button: (command: { command: string; title: string; arguments?: unknown[] }) =>
      parts.push({ kind: 'button', value: command.title, command }),
    text: () =>
      parts
        .filter((part) => part.kind === 'markdown')
        .map((part) => part.value)
        .join(''),
  };
}

function start(responder: FakeChatResponder, options: Parameters<typeof activateExtension>[0] = {}) {
  extension = activateExtension(options);
  const model = new FakeChatModel('copilot-gpt-5', responder, 'GPT-5 (Copilot)');
  languageModels.offer(model);
  const participant = languageModels.participants.get('agentTeam.team');
  if (!participant) throw new Error('@team was not registered');
  const ask = (
    prompt: string,
    {
      command,
      history = [],
      token = new CancellationTokenSource().token,
      references = [],
    }: { command?: string; history?: unknown[]; token?: unknown; references?: unknown[] } = {},
  ) => {
    const stream = recordingStream();
    const result = participant.handler({ prompt, command, model, references }, { history }, stream, token) as Promise<{
      metadata?: { rootId?: string };
      errorDetails?: { message: string };
    }>;
    return { stream, result };
  };
  return { model, ask };
}

/** The PNG signature and a header: enough for the type to be read from the bytes. */
const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

const researcherThenAnswer: FakeChatResponder = (request) => {
  if (agentOfChat(request) === 'researcher') return chatTurn('The parser is in src/parse.ts.');
  if (priorChatTurns(request) === 0)
    return chatTurn('', [
      { name: 'Agent', input: { subagent_type: 'researcher', description: 'Find the parser', prompt: 'Where is the parser?' } },
    ]);
  return chatTurn('**Answer**: src/parse.ts parses dates.');
};

describe('@team in the Chat view', () => {
  it('gives the coordinator what the user attached: files and folders as paths, the selection as text, nothing from outside the workspace', async () => {
    const prompts: string[] = [];
    const { ask } = start(
      (request) => {
        prompts.push(lastMessageText(request));
        return chatTurn('Looked.');
      },
      {
        files: {
          'src/parse.ts': 'export function parse(text: string) {\n  return JSON.parse(text);\n}\n',
          'src/util/a.ts': 'export const a = 1;\n',
        },
      },
    );
    const root = extension!.root;
    const file = (relative: string) => Uri.file(`${root}/${relative}`);
    const references = [
      { id: 'file', value: file('src/parse.ts') },
      { id: 'folder', value: file('src/util') },
      { id: 'selection', value: new Location(file('src/parse.ts'), new Range(new Position(1, 0), new Position(1, 26))) },
      { id: 'secret', value: Uri.file('/etc/passwd') },
      { id: 'screenshot.png', value: { mimeType: 'image/png', data: async () => pngBytes } },
      { id: 'broken.png', value: { mimeType: 'image/png', data: async () => new Uint8Array([1, 2, 3]) } },
      { id: 'recording', value: { mimeType: 'audio/wav', data: async () => new Uint8Array([1]) } },
    ];
    const outcome = await ask('explain this', { references }).result;
    expect(outcome.errorDetails).toBeUndefined();
    const prompt = prompts[0]!;
    expect(prompt).toContain('explain this\n\n# Attached by the user');
    expect(prompt).toContain('- The file `src/parse.ts` (read it with Read)');
    expect(prompt).toContain('- The folder `src/util/`');
    expect(prompt).toContain('- The selection in `src/parse.ts`, lines 2-2:');
    expect(prompt).toContain('  return JSON.parse(text);');
    expect(prompt).toContain('- A file outside the workspace (not given');
    expect(prompt).not.toContain('/etc/passwd');
    // The chat's model reads no images: the coordinator is told of the image instead, and the user sees why.
    expect(prompt).toContain('The user attached an image with this message: screenshot.png (image/png, 1 KB).');
    expect(prompt).toContain(
      '[The user attached the image screenshot.png (image/png, 1 KB), but the model in use (vscode-lm/copilot-gpt-5) does not accept images',
    );
    expect(prompt).toContain('- An image not sent: broken.png is not a PNG, JPEG, GIF or WebP image.');
    expect(prompt).toContain('- An attachment (audio/wav) the agents cannot see: they read text and images only.');
    const rootId = outcome.metadata?.rootId ?? '';
    expect(extension!.host.taskManager.transcript(rootId).map((entry) => (entry.type === 'notice' ? entry.text : ''))).toContain(
      'The model vscode-lm/copilot-gpt-5 does not accept images: the image was not sent; the agent was told of it instead.',
    );
  });

  it('says which command a subagent waits to be allowed to run, with a button to review it', async () => {
    const { ask } = start(
      (request) => {
        if (agentOfChat(request) === 'reviewer')
          return priorChatTurns(request) === 0
            ? chatTurn('', [{ name: 'Bash', input: { command: 'npm test', description: 'Run the tests' } }])
            : chatTurn('Could not run them.');
        if (priorChatTurns(request) === 0)
          return chatTurn('', [
            { name: 'Agent', input: { subagent_type: 'reviewer', description: 'Check the tests', prompt: 'Run the tests.' } },
          ]);
        return chatTurn('Done.');
      },
      { files: { 'a.ts': 'export const a = 1;\n' } },
    );
    fake.state.messageAnswers.push((shown) => (shown.message.includes('wants to run') ? 'Deny' : undefined));
    const { stream, result } = ask('check the tests');
    await result;
    expect(stream.text()).toContain(
      '**reviewer** wants to run this command in a scratch copy of the workspace: allow or deny it in the Agent Team view.\n\n```sh\nnpm test\n```',
    );
    expect(stream.parts.filter((part) => part.kind === 'button').map((part) => part.value)).toContain('Review the command');
  });

  it('runs the coordinator on the chat\u2019s model, tells which subagent does what, then answers with buttons', async () => {
    const { ask } = start(researcherThenAnswer);
    const { stream, result } = ask('review how we parse dates');
    const outcome = await result;
    expect(outcome.errorDetails).toBeUndefined();
    const rootId = outcome.metadata!.rootId!;
    expect(stream.parts.filter((part) => part.kind === 'progress').map((part) => part.value)).toEqual(['researcher: Find the parser']);
    expect(stream.text()).toContain('**researcher**: Find the parser \u2014 completed');
    expect(stream.text()).toContain('**Answer**: src/parse.ts parses dates.');
    expect(
      stream.parts.filter((part) => part.kind === 'button').map((part) => [part.value, part.command!.command, part.command!.arguments]),
    ).toEqual([['Show in Agent Team', 'agentTeam.showTask', [rootId]]]);
    expect(extension!.host.taskManager.get(rootId)).toMatchObject({
      role: 'coordinator',
      status: 'completed',
      model: 'vscode-lm/copilot-gpt-5',
    });
  });

  it('offers Review Changes when the run proposed edits', async () => {
    const { ask } = start(
      (request) => {
        if (agentOfChat(request) === 'refactorer') {
          return priorChatTurns(request) === 0
            ? chatTurn('', [{ name: 'Edit', input: { file_path: 'a.ts', old_string: 'const a', new_string: 'const b' } }])
            : chatTurn('Renamed.');
        }
        return priorChatTurns(request) === 0
          ? chatTurn('', [
              { name: 'Agent', input: { subagent_type: 'refactorer', description: 'Rename the helper', prompt: 'Rename a to b in a.ts' } },
            ])
          : chatTurn('Done.');
      },
      { files: { 'a.ts': 'export const a = 1;\n' } },
    );
    const { stream, result } = ask('rename a to b');
    const outcome = await result;
    const reviewButton = stream.parts.find((part) => part.value.startsWith('Review Changes'));
    expect(reviewButton).toMatchObject({
      value: 'Review Changes (1 file)',
      command: { command: 'agentTeam.reviewChanges', arguments: [outcome.metadata!.rootId] },
    });
  });

  it('the chat\u2019s Stop stops the whole tree', async () => {
    const { model, ask } = start((request) =>
      agentOfChat(request) === 'coordinator' && priorChatTurns(request) === 0
        ? chatTurn('', [{ name: 'Agent', input: { subagent_type: 'researcher', description: 'Look forever', prompt: 'Look.' } }])
        : untilCancelled(request),
    );
    const cancellation = new CancellationTokenSource();
    const { result } = ask('look around', { token: cancellation.token });
    await model.waitForRequests(2);
    cancellation.cancel();
    const outcome = await result;
    expect(outcome.errorDetails?.message).toMatch(/stopped/i);
    const tasks = extension!.host.taskManager.list();
    expect(tasks.map((task) => [task.role, task.status])).toEqual([
      ['coordinator', 'stopped'],
      ['researcher', 'stopped'],
    ]);
  });

  it('a next message after an @team answer continues that run, with its context', async () => {
    const { model, ask } = start((request) => chatTurn(`Turn about: ${lastMessageText(request)}`));
    const first = await ask('look at the parser').result;
    const history = [
      new ChatRequestTurn('look at the parser', undefined, 'agentTeam.team'),
      new ChatResponseTurn([], first, 'agentTeam.team'),
    ];
    const second = await ask('and the tests?', { history }).result;
    const followUp = extension!.host.taskManager.get(second.metadata!.rootId!);
    expect(followUp?.parentId).toBe(first.metadata!.rootId);
    // The model saw the first exchange before the new message.
    const texts = model.requests
      .at(-1)!
      .messages.flatMap((message) => message.content)
      .map((part) => (part instanceof LanguageModelTextPart ? part.value : ''));
    expect(texts.join('\n')).toContain('look at the parser');
    expect(texts.at(-1)).toContain('and the tests?');
  });

  it('/plan runs the planner; /workflow names the workflows when the one asked for does not exist', async () => {
    const { ask } = start((request) =>
      agentOfChat(request) === 'planner'
        ? chatTurn('', [{ name: 'SubmitPlan', input: { type: 'llm', sub_tasks: [] } }])
        : chatTurn('planned answer'),
    );
    const planned = await ask('audit errors', { command: 'plan' }).result;
    expect(extension!.host.taskManager.get(planned.metadata!.rootId!)).toMatchObject({ role: 'plan', status: 'completed' });
    // A message after a plan's answer is a new run: a plan is not a conversation to go on with.
    const next = await ask('now the tests', {
      history: [new ChatRequestTurn('audit errors', 'plan', 'agentTeam.team'), new ChatResponseTurn([], planned, 'agentTeam.team', 'plan')],
    }).result;
    expect(next.errorDetails).toBeUndefined();
    expect(extension!.host.taskManager.get(next.metadata!.rootId!)).toMatchObject({ parentId: null, role: 'coordinator' });
    const missing = ask('nightly fix it', { command: 'workflow' });
    expect((await missing.result).errorDetails?.message).toMatch(/There is no workflow "nightly"\. Workflows: none yet/);
  });

  it('in Restricted Mode runs nothing and says how to trust the folder', async () => {
    const { model, ask } = start(researcherThenAnswer, { trusted: false });
    const { stream, result } = ask('review it');
    expect((await result).errorDetails?.message).toContain('Restricted Mode');
    expect(stream.text()).toContain('Manage Workspace Trust');
    expect(model.requests).toHaveLength(0);
  });
});

describe('the agentTeam_delegate tool', () => {
  function tool() {
    const registered = languageModels.tools.get('agentTeam_delegate');
    if (!registered) throw new Error('agentTeam_delegate was not registered');
    return registered as {
      prepareInvocation(
        options: unknown,
      ): Promise<{ invocationMessage: string; confirmationMessages: { title: string; message: { value: string } } }>;
      invoke(options: unknown, token: unknown): Promise<{ content: Array<{ value: string }> }>;
    };
  }

  it('asks the user first, then runs the subagent, shows it in the sidebar, and returns its answer and its proposals', async () => {
    start(
      (request) =>
        priorChatTurns(request) === 0
          ? chatTurn('', [{ name: 'Edit', input: { file_path: 'a.ts', old_string: 'const a', new_string: 'const b' } }])
          : chatTurn('Renamed a to b.'),
      { files: { 'a.ts': 'export const a = 1;\n' } },
    );
    const input = { subagent_type: 'refactorer', description: 'Rename a', prompt: 'Rename a to b in a.ts.' };
    const prepared = await tool().prepareInvocation({ input });
    expect(prepared.confirmationMessages.title).toBe('Delegate to Agent Team?');
    expect(prepared.confirmationMessages.message.value).toContain('**refactorer**');
    expect(prepared.confirmationMessages.message.value).toContain('proposals you review');
    const result = await tool().invoke({ input, toolInvocationToken: undefined }, new CancellationTokenSource().token);
    const text = result.content.map((part) => part.value).join('');
    expect(text).toContain("Agent Team's refactorer completed");
    expect(text).toContain('Renamed a to b.');
    expect(text).toMatch(/Proposed edits awaiting the user's review \(nothing is written yet\): a\.ts \(\+1 \u22121\)/);
    // The run is one of ours: the sidebar lists it.
    const view = await fake.resolveView();
    view.send({ type: 'ready' });
    await view.waitFor(
      (message) => JSON.stringify(message).includes('"role":"refactorer"') && JSON.stringify(message).includes('"status":"completed"'),
    );
  });

  it('refuses an unknown subagent and malformed input with what is expected', async () => {
    start(researcherThenAnswer);
    await expect(
      tool().invoke({ input: { subagent_type: 'wizard', description: 'x', prompt: 'y' } }, new CancellationTokenSource().token),
    ).rejects.toThrow(/no subagent "wizard"\. Use one of: coordinator, researcher, reviewer, refactorer/);
    await expect(tool().invoke({ input: { subagent_type: 'researcher' } }, new CancellationTokenSource().token)).rejects.toThrow(
      /Invalid input for agentTeam_delegate: description/,
    );
  });

  it('cancelling the call stops the run; Restricted Mode refuses it', async () => {
    const { model } = start((request) => untilCancelled(request));
    const cancellation = new CancellationTokenSource();
    const invoked = tool().invoke({ input: { subagent_type: 'researcher', description: 'Look', prompt: 'Look.' } }, cancellation.token);
    await model.waitForRequests(1);
    cancellation.cancel();
    expect((await invoked).content[0]!.value).toContain("Agent Team's researcher stopped");
    fake.state.trusted = false;
    await expect(
      tool().invoke({ input: { subagent_type: 'researcher', description: 'Look', prompt: 'Look.' } }, cancellation.token),
    ).rejects.toThrow(/Restricted Mode/);
  });
});
