/**
 * Instruction files through the CLI, over both SDKs against the mock provider: the system prompt carries
 * the user's, the root's and Copilot's files in order; a folder's AGENTS.md and the Copilot files whose
 * applyTo matches come once the agent works there; a huge file is cut, a link out of the workspace is not
 * read; --instruction-files chooses the sources.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MockProtocol, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'AGENTS.md': 'Run the tests with `npm run check`.\n', 'CLAUDE.md': 'Never edit generated files.\n' });
let home: string;
let outside: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
  outside = await mkdtemp(path.join(tmpdir(), 'agent-team-outside-'));
  const write = async (root: string, relative: string, content: string) => {
    await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
    await writeFile(path.join(root, relative), content);
  };
  await write(home, '.agent-team/AGENTS.md', 'The user prefers short answers.');
  await write(world.workspace, '.github/copilot-instructions.md', 'Indent with two spaces.');
  await write(
    world.workspace,
    '.github/instructions/tests.instructions.md',
    '---\napplyTo: "**/*.test.ts"\n---\nTests use vitest, never jest.',
  );
  await write(world.workspace, '.github/instructions/manual.instructions.md', 'No applyTo: attached by hand only.');
  await write(world.workspace, 'pkg/AGENTS.md', 'In pkg/, every export has a doc comment.');
  await write(world.workspace, 'pkg/parse.test.ts', 'test("parses", () => {});\n');
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

function run(protocol: MockProtocol, extra: string[] = []) {
  const provider = providerEnvironment(protocol, world.server.baseUrl);
  return startCli(
    world.cliPath,
    ['run', '--json', '--agent', 'researcher', '--workspace', world.workspace, ...provider.args, ...extra, 'What do the tests cover?'],
    { ...provider.env, HOME: home },
  ).exited;
}

describe.each<MockProtocol>(['anthropic', 'openai'])('instruction files (%s)', (protocol) => {
  it("gives the user's, the root's and Copilot's files at the start, and a folder's once the agent works there", async () => {
    world.server.respondWith((request) =>
      priorTurns(request) === 0 ? toolCallTurn([{ name: 'Read', input: { file_path: 'pkg/parse.test.ts' } }]) : textTurn('One test.'),
    );
    const trace = path.join(outside, 'trace.md');
    const { code, stderr } = await run(protocol, ['--trace', trace]);
    expect(stderr).toBe('');
    expect(code).toBe(0);

    const [first, second] = world.server.requests;
    const system = first!.system;
    const order = [
      'The user prefers short answers.',
      'Run the tests with `npm run check`.',
      'Never edit generated files.',
      'Indent with two spaces.',
    ].map((text) => system.indexOf(text));
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(system).toContain('## ~/.agent-team/AGENTS.md');
    for (const later of ['every export has a doc comment', 'never jest', 'attached by hand only']) expect(system).not.toContain(later);

    // The folder's file and the applyTo match come with the turn after the agent read there; the manual one never.
    expect(second!.lastMessageText).toContain('## pkg/AGENTS.md\nIn pkg/, every export has a doc comment.');
    expect(second!.lastMessageText).toContain('## .github/instructions/tests.instructions.md\nTests use vitest, never jest.');
    expect(second!.lastMessageText).not.toContain('attached by hand only');
    expect(second!.system).toBe(system);

    // The trace (and the detail view, from the same transcript) names what the agent got.
    expect(await readFile(trace, 'utf8')).toContain(
      'Instruction files: ~/.agent-team/AGENTS.md, AGENTS.md, CLAUDE.md, .github/copilot-instructions.md',
    );
  });
});

describe('instruction files that are not as they should be', () => {
  it('cuts a 5 MB AGENTS.md with a note, and does not read a CLAUDE.md that links out of the workspace', async () => {
    await writeFile(path.join(world.workspace, 'AGENTS.md'), `Rule one.\n${'x'.repeat(5 * 1024 * 1024)}`);
    await writeFile(path.join(outside, 'secret.md'), 'the deploy key is hunter2');
    await rm(path.join(world.workspace, 'CLAUDE.md'));
    await symlink(path.join(outside, 'secret.md'), path.join(world.workspace, 'CLAUDE.md'));
    world.server.respondWith(() => textTurn('Done.'));
    const trace = path.join(outside, 'trace.md');
    const { code } = await run('anthropic', ['--trace', trace]);
    expect(code).toBe(0);

    const system = world.server.requests[0]!.system;
    expect(system).toContain('Rule one.');
    expect(system).toContain('[AGENTS.md is cut here: it has 5.0 MB, and only the first 32 KB of an instruction file are given.]');
    expect(system.length).toBeLessThan(40_000);
    expect(system).not.toContain('hunter2');
    expect(await readFile(trace, 'utf8')).toContain(
      'CLAUDE.md was not read: it is (or lies under) a symbolic link that leads outside the workspace',
    );
  });

  it('reads only the sources --instruction-files names, and none with none', async () => {
    world.server.respondWith(() => textTurn('Done.'));
    expect((await run('openai', ['--instruction-files', 'claude'])).code).toBe(0);
    const claudeOnly = world.server.requests[0]!.system;
    expect(claudeOnly).toContain('Never edit generated files.');
    expect(claudeOnly).not.toContain('npm run check');
    expect(claudeOnly).not.toContain('short answers');

    expect((await run('openai', ['--instruction-files', 'none'])).code).toBe(0);
    expect(world.server.requests[1]!.system).not.toContain('# Instructions of the project');

    const bad = await run('openai', ['--instruction-files', 'cursor']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--instruction-files takes agents, claude, copilot, user (comma-separated) or none, not "cursor"');
  });
});

describe('instruction, role and settings files that are links to secrets inside the workspace', () => {
  const secrets = {
    env: 'sk-secret-env-4f9a2c7e1b3d5f60',
    gitConfig: 'ghp_0123456789abcdefghijklmnopqrstuvwxyz',
    key: 'PRIVATE-KEY-BODY-7d1e9c3a5b',
    runLog: 'an-earlier-prompt-8c2f0e4d6a',
  };

  it('reads none of them: no secret reaches the model, stdout, the JSON events or the trace; stderr names each file and the rule', async () => {
    const write = async (relative: string, content: string) => {
      await mkdir(path.dirname(path.join(world.workspace, relative)), { recursive: true });
      await writeFile(path.join(world.workspace, relative), content);
    };
    const link = async (relative: string, target: string) => {
      await rm(path.join(world.workspace, relative), { force: true });
      await mkdir(path.dirname(path.join(world.workspace, relative)), { recursive: true });
      await symlink(target, path.join(world.workspace, relative));
    };
    await write('.env', `API_TOKEN=${secrets.env}\n`);
    await write('.git/config', `[remote "origin"]\n\turl = https://x-access-token:${secrets.gitConfig}@github.com/o/r.git\n`);
    await write('id_rsa', `-----BEGIN OPENSSH PRIVATE KEY-----\n${secrets.key}\n-----END OPENSSH PRIVATE KEY-----\n`);
    await write('.agent-team/runs/t1.jsonl', `${JSON.stringify({ type: 'note', text: secrets.runLog })}\n`);
    await link('AGENTS.md', '.env');
    await link('CLAUDE.md', '.git/config');
    await link('.github/copilot-instructions.md', '../id_rsa');
    await link('pkg/AGENTS.md', '../.agent-team/runs/t1.jsonl');
    await link('.claude/settings.json', '../.env');
    await link('.claude/agents/x.md', '../../.env');
    world.server.respondWith((request) =>
      priorTurns(request) === 0 ? toolCallTurn([{ name: 'Read', input: { file_path: 'pkg/parse.test.ts' } }]) : textTurn('One test.'),
    );
    const trace = path.join(outside, 'trace.json');

    const { code, stdout, stderr } = await run('anthropic', ['--trace', trace]);
    expect(code).toBe(0);

    const seen = [JSON.stringify(world.server.requests), stdout, stderr, await readFile(trace, 'utf8')].join('\n');
    for (const value of Object.values(secrets)) expect(seen).not.toContain(value);
    expect(world.server.requests.length).toBeGreaterThanOrEqual(2);
    const rule = (target: string, pattern: string) =>
      `${target}, which may hold secrets (it matches ${pattern}); such files are never read, under any name`;
    expect(stderr).toContain(`agent-team: AGENTS.md was not read: it is a symbolic link to ${rule('.env', '**/.env')}`);
    expect(stderr).toContain(`agent-team: CLAUDE.md was not read: it is a symbolic link to ${rule('.git/config', '**/.git/config')}`);
    expect(stderr).toContain(
      `agent-team: .github/copilot-instructions.md was not read: it is a symbolic link to ${rule('id_rsa', '**/id_rsa*')}`,
    );
    expect(stderr).toContain(
      `agent-team: pkg/AGENTS.md was not read: it is a symbolic link to ${rule('.agent-team/runs/t1.jsonl', '**/.agent-team/runs/**')}`,
    );
    expect(stderr).toContain(
      `agent-team: .claude/settings.json was not read: it is a symbolic link to ${rule('.env', '**/.env')}; its hooks are not run`,
    );
    expect(stderr).toContain(`.claude/agents/x.md: error: could not be read: it is a symbolic link to ${rule('.env', '**/.env')}`);
    // Each file is named once, though every task and every turn reads them again.
    expect(stderr.split('AGENTS.md was not read').length).toBe(3);
  });
});

describe('--file', () => {
  it('names the files and folders the task is about to the agent, and refuses a path outside the workspace', async () => {
    world.server.respondWith(() => textTurn('Looked.'));
    const provider = providerEnvironment('anthropic', world.server.baseUrl);
    const args = [
      'run',
      '--json',
      '--agent',
      'researcher',
      '--workspace',
      world.workspace,
      ...provider.args,
      '--instruction-files',
      'none',
    ];
    const ok = await startCli(world.cliPath, [...args, '--file', 'pkg/parse.test.ts', '--file', 'pkg', 'What do these cover?'], {
      ...provider.env,
      HOME: home,
    }).exited;
    expect(ok.code).toBe(0);
    expect(world.server.requests[0]!.lastMessageText).toBe(
      'What do these cover?\n\n# Attached by the user\n- The file `pkg/parse.test.ts` (read it with Read)\n- The folder `pkg/`',
    );

    await symlink(outside, path.join(world.workspace, 'elsewhere'));
    const refused = await startCli(world.cliPath, [...args, '--file', 'elsewhere', 'Look'], { ...provider.env, HOME: home }).exited;
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--file elsewhere: it is outside the workspace (after links)');
    expect(world.server.requests).toHaveLength(1);
  });
});
