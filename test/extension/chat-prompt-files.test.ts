/**
 * `@team /fix …` in the Chat view with the real team on scripted VS Code models: VS Code passes an
 * undeclared `/fix` as the prompt's start; the participant runs `.github/prompts/fix.prompt.md` with its
 * arguments put in, on the model its front matter names (VS Code's own attachment of the file dropped),
 * and `/plan` stays the built-in; its `tools` narrow the root agent's; the user's own ~/.claude/commands
 * are there too, below the folder's. An unknown
 * `/name` is answered with the folder's prompt files; an empty request lists them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentOfChat, chatTurn, lastMessageText } from './support/chat-turns.js';
import { CancellationTokenSource, FakeChatModel, languageModels, Uri } from './support/fake-vscode.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let extension: ActivatedExtension | undefined;
let home: string | undefined;

afterEach(async () => {
  await extension?.cleanup();
  extension = undefined;
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

const files = {
  '.github/prompts/fix.prompt.md': '---\ndescription: Fix a bug the user names\nmodel: fake-fix-model\n---\nFix this bug: $ARGUMENTS.\n',
  '.claude/commands/explain.md': '---\nagent: ask\n---\nExplain $1 briefly.\n',
  '.github/prompts/look.prompt.md': "---\ntools: ['codebase', 'editFiles']\n---\nLook at $ARGUMENTS.\n",
};

/** The user's own commands (~/.claude/commands): relative path → content, in a home of the test's own. */
function start(userCommands: Record<string, string> = {}) {
  home = mkdtempSync(path.join(tmpdir(), 'agent-team-home-'));
  mkdirSync(path.join(home, '.claude', 'commands'), { recursive: true });
  for (const [name, content] of Object.entries(userCommands)) writeFileSync(path.join(home, '.claude', 'commands', name), content);
  extension = activateExtension({ files, environment: { HOME: home } });
  const chatModel = new FakeChatModel('copilot-gpt-5', () => chatTurn('From the chat model.'));
  const fixModel = new FakeChatModel('fake-fix-model', () => chatTurn('Proposed a fix.'));
  languageModels.offer(chatModel, fixModel);
  const participant = languageModels.participants.get('agentTeam.team');
  if (!participant) throw new Error('@team was not registered');
  const ask = async (prompt: string, command?: string, references: unknown[] = []) => {
    const parts: string[] = [];
    const stream = {
      progress: () => undefined,
      markdown: (value: string | { value: string }) => parts.push(typeof value === 'string' ? value : value.value),
      button: () => undefined,
    };
    const result = (await participant.handler(
      { prompt, command, model: chatModel, references },
      { history: [] },
      stream,
      new CancellationTokenSource().token,
    )) as { errorDetails?: { message: string } };
    return { result, text: parts.join('') };
  };
  return { chatModel, fixModel, ask };
}

describe('@team /<prompt file>', () => {
  it('runs .github/prompts/fix.prompt.md with $ARGUMENTS, on the model it names', async () => {
    const { chatModel, fixModel, ask } = start();
    // VS Code attaches a .github/prompts file it recognised itself: the participant runs the file instead.
    const own = {
      id: `vscode.prompt.file__${extension!.root}/.github/prompts/fix.prompt.md`,
      value: Uri.file(`${extension!.root}/.github/prompts/fix.prompt.md`),
    };
    const { result, text } = await ask('/fix the parser accepts 2024-02-30', undefined, [own]);
    expect(result.errorDetails).toBeUndefined();
    expect(text).toContain('Proposed a fix.');
    expect(chatModel.requests).toHaveLength(0);
    expect(agentOfChat(fixModel.requests[0]!)).toBe('coordinator');
    expect(lastMessageText(fixModel.requests[0]!)).toContain('Fix this bug: the parser accepts 2024-02-30.');
    expect(lastMessageText(fixModel.requests[0]!)).not.toContain('fix.prompt.md');
    const root = extension!.host.taskManager.list().find((task) => task.parentId === null)!;
    expect(root.description).toBe('/fix the parser accepts 2024-02-30');
  });

  it('runs a .claude/commands file by the role its agent names, on the chat’s model', async () => {
    const { chatModel, ask } = start();
    const { result } = await ask('/explain parseDate');
    expect(result.errorDetails).toBeUndefined();
    expect(agentOfChat(chatModel.requests[0]!)).toBe('researcher');
    expect(lastMessageText(chatModel.requests[0]!)).toContain('Explain parseDate briefly.');
  });

  it("narrows the root agent to the prompt file's tools, never widening them", async () => {
    const { chatModel, ask } = start();
    const { result } = await ask('/look parser.ts');
    expect(result.errorDetails).toBeUndefined();
    const request = chatModel.requests[0]!;
    expect(agentOfChat(request)).toBe('coordinator');
    // editFiles names Edit and Write, which the coordinator does not have: they stay out.
    const offered = (request.options.tools ?? []).map((tool) => tool.name).filter((name) => !['TodoWrite', 'Skill'].includes(name));
    expect(offered.sort()).toEqual(['Glob', 'Grep', 'Read']);
  });

  it("runs the user's own ~/.claude/commands, below the folder's on a name clash, and lists them", async () => {
    const { chatModel, fixModel, ask } = start({ 'hello.md': 'Say hello to $ARGUMENTS.\n', 'fix.md': 'The user’s own fix.\n' });
    const hello = await ask('/hello world');
    expect(hello.result.errorDetails).toBeUndefined();
    expect(lastMessageText(chatModel.requests[0]!)).toContain('Say hello to world.');
    await ask('/fix it');
    expect(lastMessageText(fixModel.requests[0]!)).toContain('Fix this bug: it.');
    const empty = await ask('');
    expect(empty.text).toContain('/explain (Explain $1 briefly.), /hello (Say hello to $ARGUMENTS.).');
  });

  it('answers an unknown /name with the prompt files, lists them on an empty request, and keeps /plan built in', async () => {
    const { chatModel, ask } = start();
    const unknown = await ask('/fxi it');
    expect(unknown.result.errorDetails?.message).toContain('There is no prompt file /fxi. Prompt files: /fix, /look, /explain.');
    expect(chatModel.requests).toHaveLength(0);

    const empty = await ask('');
    expect(empty.text).toContain(
      'Prompt files of this folder: /fix (Fix a bug the user names), /look (Look at $ARGUMENTS.), /explain (Explain $1 briefly.).',
    );

    // A declared command is VS Code's `request.command`, never a prompt file's.
    await ask('split the parser', 'plan');
    expect(agentOfChat(chatModel.requests[0]!)).toBe('planner');
  });
});
