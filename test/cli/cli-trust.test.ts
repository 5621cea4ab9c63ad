/**
 * Trust through the real CLI bundle, tried as a hostile repository: its `.claude/settings.json` has a
 * UserPromptSubmit hook and its `.claude/agents/researcher.md` overrides the built-in role with an MCP
 * server, each leaving a marker outside the workspace when it runs unsandboxed. A plain `run` without a
 * terminal runs neither and says so; `--trust` and `agent-team trust` let them run (in the sandbox); a
 * changed hook is refused again; without a sandbox nothing runs, and every run says so, unless
 * `--no-sandbox`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpTestServer } from '../support/calculator-role.js';
import { type RecordedRequest, textTurn } from '../support/mock-provider/index.js';
import { parseEvents, providerEnvironment, startCli } from './cli-harness.js';
import {
  bubblewrapReplacedBy,
  canReplaceBubblewrap,
  failingBubblewrap,
  replacingBubblewrapNeedsRoot,
  sandboxRefusalPattern,
} from './bubblewrap-replaced.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'main.ts': 'export function main() {}\n' });
let home: string;
let outside: string;
const cleanup: string[] = [];

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
  outside = await mkdtemp(path.join(tmpdir(), 'agent-team-outside-'));
  cleanup.push(home, outside);
  await writeHook('HOOK-CONTEXT');
  await mkdir(path.join(world.workspace, '.claude', 'agents'), { recursive: true });
  await writeFile(
    path.join(world.workspace, '.claude', 'agents', 'researcher.md'),
    [
      '---',
      'name: researcher',
      'description: Finds things.',
      'tools: [Read]',
      'mcpServers:',
      '  calc:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(mcpTestServer)}]`,
      '    env:',
      `      MCP_PID_FILE: ${JSON.stringify(path.join(outside, 'server-ran'))}`,
      '---',
      'You are a researcher of this repository.',
    ].join('\n'),
  );
});

afterEach(async () => {
  for (const folder of cleanup.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** The hook writes a marker outside the workspace (it can only where it runs unsandboxed) and prints `context`. */
async function writeHook(context: string): Promise<void> {
  const command = `echo ran > ${JSON.stringify(path.join(outside, 'hook-ran'))} 2>/dev/null; echo ${context}`;
  await mkdir(path.join(world.workspace, '.claude'), { recursive: true });
  await writeFile(
    path.join(world.workspace, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] } }),
  );
}

async function run(flags: string[], options: { wrapper?: readonly string[] } = {}) {
  world.server.respondWith(() => textTurn('main is in main.ts.'));
  const before = world.server.requests.length;
  const provider = providerEnvironment('openai', world.server.baseUrl);
  const result = await startCli(
    world.cliPath,
    ['run', '--json', '--agent', 'researcher', '--workspace', world.workspace, ...flags, ...provider.args, 'Where is main?'],
    { ...provider.env, HOME: home },
    options,
  ).exited;
  const request: RecordedRequest | undefined = world.server.requests[before];
  return {
    ...result,
    request,
    ran: {
      hook: request?.lastMessageText.includes('HOOK-CONTEXT') ?? false,
      server: request?.toolNames.includes('mcp__calc__add') ?? false,
    },
  };
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );
const markers = async () => ({
  hook: await exists(path.join(outside, 'hook-ran')),
  server: await exists(path.join(outside, 'server-ran')),
});
const storeFile = () => path.join(home, '.config', 'agent-team', 'trusted-folders.json');

/** A machine without a sandbox: a bwrap in the system's place that fails as where namespaces are forbidden. */
async function withoutSandbox(): Promise<{ wrapper: string[] }> {
  const replaced = await bubblewrapReplacedBy(failingBubblewrap);
  cleanup.push(path.dirname(replaced.wrapper.at(-1)!));
  return { wrapper: replaced.wrapper };
}

describe('a folder that is not trusted', () => {
  it('runs neither its hook nor its role file\u2019s server without a terminal, and stderr names both and how to allow them', async () => {
    const result = await run([]);
    expect(result.code).toBe(0);
    expect(result.ran).toEqual({ hook: false, server: false });
    expect(await markers()).toEqual({ hook: false, server: false });
    expect(result.stderr).toContain('agent-team: this folder is not trusted: its own configuration does not run:');
    expect(result.stderr).toContain(
      `UserPromptSubmit hook (.claude/settings.json): echo ran > "${path.join(outside, 'hook-ran')}" 2>/dev/null; echo HOOK-CONTEXT`,
    );
    expect(result.stderr).toContain(
      `MCP server 'calc' of role 'researcher' (.claude/agents/researcher.md): MCP_PID_FILE=${path.join(outside, 'server-ran')} ${process.execPath} ${mcpTestServer}`,
    );
    expect(result.stderr).toContain('agent-team trust --workspace');
    expect(result.stderr).toContain('--trust (this run only)');
    // The role's instructions are still the folder's: text, not code.
    expect(result.request?.system).toContain('You are a researcher of this repository.');
  });

  it("runs the user's own hook and own role's server there (in the sandbox): they are the user's, not the folder's", async () => {
    await mkdir(path.join(home, '.claude', 'agents'), { recursive: true });
    await writeFile(
      path.join(home, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo USER-HOOK' }] }] } }),
    );
    const role = await readFile(path.join(world.workspace, '.claude', 'agents', 'researcher.md'), 'utf8');
    await writeFile(path.join(home, '.claude', 'agents', 'helper.md'), role.replace('name: researcher', 'name: helper'));
    world.server.respondWith(() => textTurn('Helped.'));
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const result = await startCli(
      world.cliPath,
      ['run', '--json', '--agent', 'helper', '--workspace', world.workspace, ...provider.args, 'Help'],
      { ...provider.env, HOME: home },
    ).exited;
    expect(result.code).toBe(0);
    const request = world.server.requests[0]!;
    expect(request.lastMessageText).toContain('USER-HOOK');
    expect(request.lastMessageText).not.toContain('HOOK-CONTEXT');
    expect(request.toolNames).toContain('mcp__calc__add');
    expect(result.stderr).toContain("MCP server 'calc' of role 'researcher'");
    expect(result.stderr).not.toContain("role 'helper'");
  });

  it('--trust runs both, in the sandbox, and remembers nothing', async () => {
    const result = await run(['--trust']);
    expect(result.stderr).toBe('');
    expect(result.ran).toEqual({ hook: true, server: true });
    expect(await markers()).toEqual({ hook: false, server: false });
    expect(await exists(storeFile())).toBe(false);
    expect((await run([])).ran).toEqual({ hook: false, server: false });
  });

  it('agent-team trust shows what would run and records the yes; run then runs both; a changed hook is refused again', async () => {
    const trusted = await startCli(world.cliPath, ['trust', '--workspace', world.workspace], { HOME: home }).exited;
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain('UserPromptSubmit hook (.claude/settings.json)');
    expect(trusted.stdout).toContain("MCP server 'calc' of role 'researcher'");
    expect(trusted.stdout).toMatch(/Trusted \(sha256:[0-9a-f]{64}\)/);
    expect((await stat(storeFile())).mode & 0o777).toBe(0o600);

    const after = await run([]);
    expect(after.stderr).toBe('');
    expect(after.ran).toEqual({ hook: true, server: true });

    await writeHook('HOOK-CONTEXT-CHANGED');
    const changed = await run([]);
    expect(changed.ran).toEqual({ hook: false, server: false });
    expect(changed.stderr).toContain('this folder is not trusted (it changed since you trusted it)');
    expect(changed.stderr).toContain('echo HOOK-CONTEXT-CHANGED');
  });

  it('a damaged trust store counts as empty, and says so', async () => {
    await mkdir(path.dirname(storeFile()), { recursive: true });
    await writeFile(storeFile(), '{ not json');
    const result = await run([]);
    expect(result.ran).toEqual({ hook: false, server: false });
    expect(result.stderr).toContain('is damaged: no folder counts as trusted');
    expect(await readFile(storeFile(), 'utf8')).toBe('{ not json');
  });
});

describe('agent-team mcp, whose stdin is its client’s', () => {
  it('never asks: untrusted, it says at its start what does not run; --trust lets it', async () => {
    for (const [flags, refused] of [
      [[], true],
      [['--trust'], false],
    ] as const) {
      const server = startCli(
        world.cliPath,
        ['mcp', '--workspace', world.workspace, ...flags, '--provider', 'anthropic', '--base-url', world.server.baseUrl],
        { ANTHROPIC_API_KEY: 'test-key', HOME: home },
        { stdin: 'pipe' },
      );
      server.child.stdin?.end();
      const { stderr } = await server.exited;
      expect(stderr.includes('agent-team: this folder is not trusted: its own configuration does not run:')).toBe(refused);
      expect(stderr).not.toContain('[y/N]');
    }
  });
});

describe.skipIf(!canReplaceBubblewrap)(`a machine without a sandbox (${replacingBubblewrapNeedsRoot})`, () => {
  it('runs no hook and no server even in a trusted folder, and says so at the start with no command allowed', async () => {
    const machine = await withoutSandbox();
    for (const flags of [[], ['--trust']]) {
      const result = await run(flags, machine);
      expect(result.code).toBe(0);
      expect(result.ran).toEqual({ hook: false, server: false });
      expect(await markers()).toEqual({ hook: false, server: false });
      expect(result.stderr).toMatch(
        new RegExp(
          `agent-team: no OS sandbox here \\((?:${sandboxRefusalPattern.source})\\): no hook runs, no MCP server that starts a program starts`,
        ),
      );
      // The run's own record says so too (the sidebar shows the same notice), and names what was held back.
      const notices = parseEvents(result.stdout)
        .filter((event) => event.type === 'notice')
        .map((event) => String(event.text));
      expect(notices[0]).toMatch(new RegExp(`^No OS sandbox here \\((?:${sandboxRefusalPattern.source})`));
      if (flags.length > 0) expect(notices.join('\n')).toContain("MCP server 'calc' was not started: there is no OS sandbox here");
    }
  });

  it('with --no-sandbox and --trust both run, as the user (their markers are written), and stderr says so', async () => {
    const result = await run(['--no-sandbox', '--trust'], await withoutSandbox());
    expect(result.ran).toEqual({ hook: true, server: true });
    expect(await markers()).toEqual({ hook: true, server: true });
    expect(result.stderr).toContain(
      '--no-sandbox: allowed commands run as you, with your files and your network; so do hooks and MCP servers.',
    );
  });
});

/** `script` (util-linux) gives the CLI a terminal: stdin and stderr are TTYs, as when a user types the command. */
const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasScript)('on a terminal', () => {
  /** Runs `run` on a pseudo-terminal, answering `answer` to the trust question once it is asked. */
  function runOnTerminal(
    answer: string,
    command: string[] = ['run', '--json', '--agent', 'researcher', '--workspace', world.workspace],
  ): Promise<{ output: string; code: number | null }> {
    world.server.respondWith(() => textTurn('main is in main.ts.'));
    const provider = providerEnvironment('openai', world.server.baseUrl);
    const argv = [process.execPath, world.cliPath, ...command, ...(command[0] === 'run' ? [...provider.args, 'Where is main?'] : [])];
    const line = argv.map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(' ');
    const child = spawn('script', ['-qec', line, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', ...provider.env, HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let answered = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (!answered && output.includes('[y/N]')) {
        answered = true;
        child.stdin.write(`${answer}\n`);
      }
    });
    return new Promise((resolve) => child.on('close', (code) => resolve({ output, code })));
  }

  it('asks, listing exactly what would run; a yes runs both and is remembered; a no runs neither', async () => {
    const no = await runOnTerminal('n');
    expect(no.output).toContain("agent-team: this folder's own configuration would run:");
    expect(no.output).toContain('UserPromptSubmit hook (.claude/settings.json)');
    expect(no.output).toContain('not trusted: none of these runs.');
    expect(world.server.requests.at(-1)?.toolNames).not.toContain('mcp__calc__add');
    expect(await exists(storeFile())).toBe(false);

    const yes = await runOnTerminal('y');
    expect(yes.code).toBe(0);
    expect(world.server.requests.at(-1)?.toolNames).toContain('mcp__calc__add');
    expect(world.server.requests.at(-1)?.lastMessageText).toContain('HOOK-CONTEXT');
    expect(await exists(storeFile())).toBe(true);
    // Remembered: a run without a terminal now runs them without asking.
    expect((await run([])).ran).toEqual({ hook: true, server: true });
  });

  it('agent-team trust asks too: a no records nothing (exit 1), a yes records', async () => {
    const no = await runOnTerminal('n', ['trust', '--workspace', world.workspace]);
    expect(no.code).toBe(1);
    expect(no.output).toContain('Not trusted: nothing was recorded.');
    expect(await exists(storeFile())).toBe(false);
    const yes = await runOnTerminal('y', ['trust', '--workspace', world.workspace]);
    expect(yes.code).toBe(0);
    expect(await exists(storeFile())).toBe(true);
  });
});
