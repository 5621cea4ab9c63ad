/**
 * Prompt files and commands through the CLI: `agent-team run /fix <args>` runs
 * `.github/prompts/fix.prompt.md` with `$ARGUMENTS` and `$1` put in and its front matter's model and
 * agent; `.claude/commands/*.md` (no front matter needed) with `${input:…}` from `name=value`; a clash is
 * the `.github` file's; an unknown name, a missing input or an untrusted folder is a usage error before
 * anything starts. The user's own ~/.claude/commands run in any folder, below the workspace's. A file's `tools` / `allowed-tools` narrow the root agent's tools, never widen them.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, parseEvents, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'parser.ts': 'export const parse = (text: string) => new Date(text);\n' });

async function write(relative: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(world.workspace, relative)), { recursive: true });
  await writeFile(path.join(world.workspace, relative), content);
}

const fixPrompt =
  '---\ndescription: Fix a bug the user names\nmodel: mock-fix-model\n---\nFix this bug: $ARGUMENTS.\nStart with the file $1.\n';

function run(protocol: MockProtocol, task: string[], extra: string[] = [], home = world.workspace) {
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  return startCli(world.cliPath, ['run', '--json', '--workspace', world.workspace, ...provider.args, ...extra, ...task], {
    ...provider.env,
    HOME: home,
  }).exited;
}

describe.each<MockProtocol>(['anthropic', 'openai'])('agent-team run /fix (%s)', (protocol) => {
  it('runs .github/prompts/fix.prompt.md with its arguments put in, on the model its front matter names', async () => {
    await write('.github/prompts/fix.prompt.md', fixPrompt);
    world.server.respondWith(() => textTurn('Proposed a fix.'));
    const { code, stdout, stderr } = await run(protocol, ['/fix', 'parser.ts', 'accepts invalid dates'], ['--trust']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const [request] = world.server.requests;
    expect(world.server.requests).toHaveLength(1);
    expect(agentOf(request!)).toBe('coordinator');
    expect(request!.model).toBe('mock-fix-model');
    expect(request!.lastMessageText).toContain('Fix this bug: parser.ts accepts invalid dates.\nStart with the file parser.ts.');
    expect(request!.lastMessageText).not.toContain('$ARGUMENTS');
    const events = parseEvents(stdout);
    expect(events.find((event) => event.type === 'task-start')).toMatchObject({
      role: 'coordinator',
      description: '/fix parser.ts accepts invalid dates',
    });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: 'Proposed a fix.' });
  });

  it("narrows the root agent to the prompt file's tools (VS Code's names), never widening, and says which names allow nothing", async () => {
    // codebase: Glob, Grep, Read; editFiles: Edit, Write, which the coordinator lacks; fetch: not ours.
    await write('.github/prompts/look.prompt.md', "---\ntools: ['codebase', 'editFiles', 'fetch']\n---\nLook at $ARGUMENTS.\n");
    world.server.respondWith(() => textTurn('Looked.'));
    const { code, stderr } = await run(protocol, ['/look', 'parser.ts'], ['--trust']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("/look (.github/prompts/look.prompt.md): 'fetch' is no tool of Agent Team, so it allows nothing");
    const [request] = world.server.requests;
    expect(agentOf(request!)).toBe('coordinator');
    expect(request!.toolNames.filter((name) => !['TodoWrite', 'Skill'].includes(name)).sort()).toEqual(['Glob', 'Grep', 'Read']);
  });

  it("narrows Bash to a Claude Code command's allowed-tools pattern, refusing another command line before anyone is asked", async () => {
    await write('.claude/commands/status.md', '---\nagent: edit\nallowed-tools: Bash(git status:*), Read\n---\nSay what changed.\n');
    let turn = 0;
    world.server.respondWith(() =>
      turn++ === 0 ? toolCallTurn([{ name: 'Bash', input: { command: 'rm -rf .' } }]) : textTurn('Nothing ran.'),
    );
    const trace = path.join(world.workspace, '..', `${path.basename(world.workspace)}-trace.md`);
    const { code, stderr } = await run(protocol, ['/status'], ['--trust', '--trace', trace]);
    expect(code, stderr).toBe(0);
    // The transcript (the trace, the detail view) says the run was narrowed, and to what (Markdown escapes the *).
    expect(await readFile(trace, 'utf8')).toContain(
      'notice: Tools narrowed for this run to Bash(git status:\\*), Read: offered Read, Bash',
    );
    await rm(trace, { force: true });
    const [first, second] = world.server.requests;
    expect(agentOf(first!)).toBe('refactorer');
    expect(first!.toolNames.filter((name) => !['TodoWrite', 'Skill'].includes(name)).sort()).toEqual(['Bash', 'Read']);
    expect(second!.lastMessageText).toContain('Refused: this run allows only Bash(git status:*), Read. This Bash call is not among them.');
  });
});

describe('prompt files and commands', () => {
  it('runs a .claude/commands file with ${input:…} from name=value, by the role its agent names; a clash is the .github file’s', async () => {
    await write('.github/prompts/fix.prompt.md', fixPrompt);
    await write('.claude/commands/fix.md', 'The other fix.\n');
    await write('.claude/commands/explain.md', '---\nagent: ask\n---\nExplain ${input:symbol:the symbol} in ${workspaceFolderBasename}.\n');
    world.server.respondWith(() => textTurn('It parses dates.'));

    const explained = await run('anthropic', ['/explain', 'symbol=parse'], ['--trust']);
    expect(explained.code, explained.stderr).toBe(0);
    const request = world.server.requests[0]!;
    expect(agentOf(request)).toBe('researcher');
    expect(request.model).not.toBe('mock-fix-model');
    expect(request.lastMessageText).toContain(`Explain parse in ${path.basename(world.workspace)}.`);

    const fixed = await run('anthropic', ['/fix', 'it'], ['--trust']);
    expect(fixed.code).toBe(0);
    expect(world.server.requests[1]!.lastMessageText).toContain('Fix this bug: it.');
  });

  it('appends the arguments to a prompt that does not place them', async () => {
    await write('.claude/commands/review.md', 'Review the change for error handling.');
    world.server.respondWith(() => textTurn('Looks fine.'));
    const { code } = await run('openai', ['/review', 'src/a.ts'], ['--trust', '--agent', 'reviewer']);
    expect(code).toBe(0);
    expect(agentOf(world.server.requests[0]!)).toBe('reviewer');
    expect(world.server.requests[0]!.lastMessageText).toContain('Review the change for error handling.\n\nARGUMENTS: src/a.ts');
  });

  it('refuses before anything starts (exit 2): an unknown name, a missing input, a folder that is not trusted', async () => {
    await write('.github/prompts/fix.prompt.md', fixPrompt);
    await write('.claude/commands/explain.md', 'Explain ${input:symbol}.');
    world.server.respondWith(() => textTurn('no'));

    const unknown = await run('anthropic', ['/fxi', 'it'], ['--trust']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no prompt file /fxi. Prompt files: /fix, /explain.');

    const missing = await run('anthropic', ['/explain'], ['--trust']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('/explain needs ${input:symbol}: give it after the name, as symbol=<value>');

    const untrusted = await run('anthropic', ['/fix', 'it']);
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toContain('prompt /fix (.github/prompts/fix.prompt.md): Fix a bug the user names (model mock-fix-model)');
    expect(untrusted.stderr).toContain(
      '/fix: this folder is not trusted, so its prompt files (.github/prompts, .claude/commands) are not read',
    );
    expect(world.server.requests).toHaveLength(0);
  });

  it('fails to start a prompt file whose agent names no role, saying so', async () => {
    await write('.claude/commands/odd.md', '---\nagent: nosuch\n---\nDo $ARGUMENTS.');
    world.server.respondWith(() => textTurn('no'));
    const { code, stderr } = await run('anthropic', ['/odd', 'it'], ['--trust']);
    expect(code).toBe(2);
    expect(stderr).toContain(
      '/odd (.claude/commands/odd.md): its agent "nosuch" is no role here (ask, edit, agent, or a role: researcher, reviewer, refactorer',
    );
    expect(world.server.requests).toHaveLength(0);
  });

  it("runs the user's own ~/.claude/commands in a folder that is not trusted, and below the workspace's on a name clash", async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
    try {
      await mkdir(path.join(home, '.claude', 'commands'), { recursive: true });
      await writeFile(path.join(home, '.claude', 'commands', 'hello.md'), 'Say hello to $ARGUMENTS.\n');
      await writeFile(
        path.join(home, '.claude', 'commands', 'fix.md'),
        '---\nallowed-tools: Read\n---\nThe user’s own fix of $ARGUMENTS.\n',
      );
      await write('.github/prompts/fix.prompt.md', fixPrompt);
      world.server.respondWith(() => textTurn('Done.'));

      const hello = await run('anthropic', ['/hello', 'world'], [], home);
      expect(hello.code, hello.stderr).toBe(0);
      expect(world.server.requests[0]!.lastMessageText).toContain('Say hello to world.');

      // Untrusted, the folder's /fix is not read: the user's runs, narrowed by its own allowed-tools.
      const untrusted = await run('openai', ['/fix', 'it'], [], home);
      expect(untrusted.code, untrusted.stderr).toBe(0);
      expect(world.server.requests[1]!.lastMessageText).toContain('The user’s own fix of it.');
      expect(world.server.requests[1]!.toolNames.filter((name) => !['TodoWrite', 'Skill'].includes(name))).toEqual(['Read']);

      const trusted = await run('anthropic', ['/fix', 'it'], ['--trust'], home);
      expect(trusted.code, trusted.stderr).toBe(0);
      expect(world.server.requests[2]!.lastMessageText).toContain('Fix this bug: it.');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('takes a task that starts with a path as a task', async () => {
    world.server.respondWith(() => textTurn('Cleaned.'));
    const { code } = await run('anthropic', ['/tmp/cache/ is full: what writes there?']);
    expect(code).toBe(0);
    expect(world.server.requests[0]!.lastMessageText).toContain('/tmp/cache/ is full');
  });
});
