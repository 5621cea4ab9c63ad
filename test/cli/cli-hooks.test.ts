/**
 * Hooks in Claude Code's format through the real CLI bundle and both SDKs against the mock provider: a
 * PreToolUse hook that blocks an Edit (the agent reads why, nothing is proposed), a PostToolUse formatter
 * whose version of the file becomes the proposal, a Stop hook that sends the agent back once, a
 * UserPromptSubmit hook that adds context or refuses the prompt; and what goes wrong: a hook that hangs
 * (its timeout), one that prints garbage, a settings file that links out of the workspace, --no-hooks.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'notes.txt': 'first line\n' });
let home: string;
let outside: string;

/** Reads the event's JSON from stdin and hands it to `body` (a script's text), which may exit with a code. */
const hookScript = (body: string) =>
  `let input = '';\nprocess.stdin.on('data', (chunk) => (input += chunk));\nprocess.stdin.on('end', () => {\n  const event = JSON.parse(input);\n${body}\n});\n`;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
  outside = await mkdtemp(path.join(tmpdir(), 'agent-team-outside-'));
  await mkdir(path.join(world.workspace, '.claude', 'hooks'), { recursive: true });
  await writeFile(
    path.join(world.workspace, '.claude', 'hooks', 'guard.js'),
    hookScript(
      "  if (String(event.tool_input.file_path).startsWith('generated/')) { process.stderr.write('generated/ is written by the build; edit the template instead'); process.exit(2); }",
    ),
  );
  await writeFile(
    path.join(world.workspace, '.claude', 'hooks', 'format.js'),
    hookScript(
      "  const fs = require('fs');\n  const file = event.tool_input.file_path;\n  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').toUpperCase());",
    ),
  );
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function settings(value: unknown, file = '.claude/settings.json'): Promise<void> {
  await mkdir(path.dirname(path.join(world.workspace, file)), { recursive: true });
  await writeFile(path.join(world.workspace, file), JSON.stringify(value));
}

function command(event: string, matcher: string, line: string, extra: Record<string, unknown> = {}) {
  return { [event]: [{ matcher, hooks: [{ type: 'command', command: line, ...extra }] }] };
}

function run(protocol: MockProtocol, args: string[], prompt = 'Tidy the notes') {
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  const trace = path.join(outside, 'trace.json');
  // The folder's own hooks run where the user trusts it (cli-trust.test.ts has what happens where not).
  const exited = startCli(
    world.cliPath,
    [
      'run',
      '--json',
      '--agent',
      'refactorer',
      '--workspace',
      world.workspace,
      '--trust',
      '--trace',
      trace,
      ...provider.args,
      ...args,
      prompt,
    ],
    { ...provider.env, HOME: home },
  ).exited;
  return { exited, trace: () => readFile(trace, 'utf8') };
}

describe.each<MockProtocol>(['anthropic', 'openai'])('hooks through the CLI (%s)', (protocol) => {
  it('a PreToolUse hook blocks an Edit: nothing is proposed, and the agent reads why', async () => {
    await settings({ hooks: command('PreToolUse', 'Edit|Write', 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.js"') });
    world.server.respondWith((request) =>
      priorTurns(request) === 0
        ? toolCallTurn([{ name: 'Write', input: { file_path: 'generated/api.ts', content: 'export {};\n' } }])
        : textTurn(`Blocked: ${request.lastMessageText}`),
    );
    const { exited, trace } = run(protocol, ['--apply']);
    const { code, stdout, stderr } = await exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(world.server.requests[1]!.lastMessageText).toContain('Not run: a PreToolUse hook (PreToolUse [Edit|Write]');
    expect(world.server.requests[1]!.lastMessageText).toContain('generated/ is written by the build; edit the template instead');
    expect(parseEvents(stdout).at(-1)?.output).toContain('edit the template instead');
    await expect(readFile(path.join(world.workspace, 'generated', 'api.ts'), 'utf8')).rejects.toThrow();
    expect(await trace()).toContain('exit 2 in');
  });

  it("a PostToolUse formatter's version of the edited file becomes the proposal, and the agent is told", async () => {
    await settings({ hooks: command('PostToolUse', 'Write|Edit', 'node .claude/hooks/format.js') });
    world.server.respondWith((request) =>
      priorTurns(request) === 0
        ? toolCallTurn([{ name: 'Edit', input: { file_path: 'notes.txt', old_string: 'first line', new_string: 'first line, tidied' } }])
        : textTurn('Tidied.'),
    );
    const { exited, trace } = run(protocol, ['--apply']);
    const { code, stderr } = await exited;
    expect(stderr).toBe('applied: notes.txt — notes.txt: applied 1 of 1 change.\nTo take back what was written: agent-team undo t1\n');
    expect(code).toBe(0);
    expect(await readFile(path.join(world.workspace, 'notes.txt'), 'utf8')).toBe('FIRST LINE, TIDIED\n');
    expect(world.server.requests[1]!.lastMessageText).toContain('changed notes.txt after your Edit; its version is now your proposal');
    expect(await trace()).toContain('Hook PostToolUse [Write|Edit] `node .claude/hooks/format.js` (.claude/settings.json): exit 0');
  });
});

describe('hooks around the agent and the prompt', () => {
  it('a Stop hook sends the agent back once (stop_hook_active tells the second time), then lets it finish', async () => {
    await writeFile(
      path.join(world.workspace, '.claude', 'hooks', 'stop.js'),
      hookScript(
        "  if (!event.stop_hook_active) { process.stdout.write(JSON.stringify({ decision: 'block', reason: 'Say which tests you ran.' })); }",
      ),
    );
    await settings({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'node .claude/hooks/stop.js' }] }] } });
    world.server.respondWith((request) => (priorTurns(request) === 0 ? textTurn('Done.') : textTurn('Done; I ran no tests.')));
    const { exited } = run('anthropic', []);
    const { code, stdout } = await exited;
    expect(code).toBe(0);
    expect(world.server.requests).toHaveLength(2);
    expect(world.server.requests[1]!.lastMessageText).toContain('does not let you finish yet:\nSay which tests you ran.');
    expect(parseEvents(stdout).at(-1)?.output).toBe('Done; I ran no tests.');
  });

  it("a UserPromptSubmit hook's output is context with the prompt; one that exits 2 refuses the prompt", async () => {
    await settings({ hooks: command('UserPromptSubmit', '', 'node -e "process.stdout.write(\'The sprint ends Friday.\')"') });
    world.server.respondWith(() => textTurn('Noted.'));
    const first = await run('openai', []).exited;
    expect(first.code).toBe(0);
    expect(world.server.requests[0]!.lastMessageText).toContain('Tidy the notes');
    expect(world.server.requests[0]!.lastMessageText).toContain('[Context added by a hook]\nThe sprint ends Friday.');

    await settings({
      hooks: command('UserPromptSubmit', '', "grep -q password && { echo 'Prompts must not hold passwords.' >&2; exit 2; }; exit 0"),
    });
    const requestsBefore = world.server.requests.length;
    const second = await run('openai', [], 'Use the password hunter2').exited;
    expect(second.code).not.toBe(0);
    expect(world.server.requests).toHaveLength(requestsBefore);
    expect(second.stdout + second.stderr).toContain('The prompt was not given to the agent: the UserPromptSubmit hook');
    expect(second.stdout + second.stderr).toContain('Prompts must not hold passwords.');
  });
});

describe('hooks that go wrong', () => {
  it('a hook that hangs is ended at its timeout and blocks nothing; garbage output is named and ignored', async () => {
    await settings({
      hooks: {
        PreToolUse: [
          { matcher: 'Read', hooks: [{ type: 'command', command: 'sleep 60', timeout: 0.5 }] },
          { matcher: '*', hooks: [{ type: 'command', command: "printf '{not json at all'" }] },
        ],
      },
    });
    world.server.respondWith((request) =>
      priorTurns(request) === 0
        ? toolCallTurn([{ name: 'Read', input: { file_path: 'notes.txt' } }])
        : textTurn(`Read: ${request.lastMessageText}`),
    );
    const { exited, trace } = run('anthropic', []);
    const { code, stdout } = await exited;
    expect(code).toBe(0);
    expect(parseEvents(stdout).at(-1)?.output).toContain('first line');
    const text = await trace();
    expect(text).toContain('`sleep 60` (.claude/settings.json): timed out after');
    expect(text).toContain('its output looks like JSON but is ignored: it is not valid JSON');
  });

  it('a settings file that links out of the workspace is not read; --no-hooks runs none', async () => {
    await writeFile(path.join(outside, 'settings.json'), JSON.stringify({ hooks: command('PreToolUse', '*', 'exit 2') }));
    await mkdir(path.join(world.workspace, '.agent-team'), { recursive: true });
    await symlink(path.join(outside, 'settings.json'), path.join(world.workspace, '.agent-team', 'settings.json'));
    world.server.respondWith((request) =>
      priorTurns(request) === 0
        ? toolCallTurn([{ name: 'Read', input: { file_path: 'notes.txt' } }])
        : textTurn(`Read: ${request.lastMessageText}`),
    );
    const linked = run('openai', []);
    const linkedEnd = await linked.exited;
    expect(linkedEnd.code).toBe(0);
    expect(world.server.requests[1]!.lastMessageText).toContain('first line');
    const refusal =
      '.agent-team/settings.json was not read: it is (or lies under) a symbolic link that leads outside the workspace; its hooks are not run';
    expect(await linked.trace()).toContain(refusal);
    expect(linkedEnd.stderr).toContain(`agent-team: ${refusal}`);

    await rm(path.join(world.workspace, '.agent-team', 'settings.json'));
    await settings({ hooks: command('PreToolUse', '*', 'exit 2') });
    const off = run('openai', ['--no-hooks']);
    expect((await off.exited).code).toBe(0);
    expect(world.server.requests[3]!.lastMessageText).toContain('first line');
    expect(await off.trace()).not.toContain('Hook PreToolUse');
  });
});
