/**
 * The MCP servers a repository already configures for Claude Code (`.mcp.json`) and VS Code
 * (`.vscode/mcp.json`, JSON with comments), through the real CLI bundle: a role whose `tools` name them
 * (`mcp__calc__add`, `mcp__web__*`) calls them — the stdio server in the OS sandbox, the HTTP one reached by
 * agent-team — and gets only the tools it names; a server needing an `${input:…}` is held back in the CLI,
 * saying why; in a folder that is not trusted none starts and the HTTP server is never reached;
 * `agent-team mcp-servers` lists them all, where each was found, who names it and why one would not start.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpTestServer } from '../support/calculator-role.js';
import { startHttpMcpServer, type HttpMcpServer } from '../support/mcp-http-test-server.js';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { parseEvents, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';
import { processesMarked } from '../commands/bash-support.js';

const world = useCliWorld({ 'notes.md': 'Sum things.\n' });
let http: HttpMcpServer;
let configHome: string;
let marker: string;

beforeEach(async () => {
  http = await startHttpMcpServer();
  configHome = await mkdtemp(path.join(tmpdir(), 'agent-team-xdg-'));
  marker = `configured-calc-${process.pid}-${Date.now()}`;
  const calc = { command: process.execPath, args: [mcpTestServer, `--marker=${marker}`] };
  await writeFile(path.join(world.workspace, '.mcp.json'), JSON.stringify({ mcpServers: { calc } }, null, 2));
  await mkdir(path.join(world.workspace, '.vscode'));
  const vscode = [
    '{',
    '  // VS Code writes comments and trailing commas here.',
    '  "inputs": [{ "type": "promptString", "id": "token", "description": "The keyed API token", "password": true }],',
    '  "servers": {',
    `    "web": { "type": "http", "url": "${http.url}" },`,
    `    "keyed": { "type": "http", "url": "${http.url}", "headers": { "Authorization": "Bearer \${input:token}" } },`,
    '    "old": { "type": "sse", "url": "http://127.0.0.1:1/sse" },',
    '    "calc": { "command": "node", "args": ["shadowed.js"] },',
    '  },',
    '}',
  ];
  await writeFile(path.join(world.workspace, '.vscode', 'mcp.json'), vscode.join('\n'));
  await mkdir(path.join(world.workspace, '.claude', 'agents'), { recursive: true });
  const role = [
    '---',
    'name: calculator',
    'description: Adds numbers.',
    'tools: Read, mcp__calc__add, mcp__web__*, mcp__keyed__shout',
    '---',
    'You add numbers with the tools you have.',
  ];
  await writeFile(path.join(world.workspace, '.claude', 'agents', 'calculator.md'), role.join('\n'));
});

afterEach(async () => {
  await http.close();
  await rm(configHome, { recursive: true, force: true });
});

const run = (extra: string[]) => {
  const provider = providerEnvironment('anthropic', world.server.baseUrl);
  return startCli(
    world.cliPath,
    [
      'run',
      '--json',
      '--workspace',
      world.workspace,
      '--agent',
      'calculator',
      ...extra,
      ...provider.args,
      'Add 20 and 22, and shout quiet',
    ],
    { ...provider.env, XDG_CONFIG_HOME: configHome },
  ).exited;
};

describe('MCP servers from .mcp.json and .vscode/mcp.json', () => {
  it('a role that names them calls them: the stdio one in the sandbox, the HTTP one reached; only the tools it names', async () => {
    world.server.respondWith((request) => {
      if (priorTurns(request) === 0) {
        return toolCallTurn([
          { name: 'mcp__calc__add', input: { a: 20, b: 22 } },
          { name: 'mcp__web__shout', input: { text: 'quiet' } },
        ]);
      }
      return textTurn('Done.');
    });
    const { code, stdout, stderr } = await run(['--trust']);
    // Held back, and said on stderr, once: the CLI asks for no input.
    expect(stderr).toBe(
      "agent-team: MCP server 'keyed' (.vscode/mcp.json) was not started: it needs the input 'token' (The keyed API token), and nobody can be asked for it here (the CLI asks for no server's ${input:…}, VS Code does; to use it here, give the value in the server's entry, e.g. in your own ~/.config/agent-team/mcp.json).\n",
    );
    expect(code).toBe(0);
    expect(parseEvents(stdout).at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    const [first, second] = world.server.requests;
    // Named: calc's add only (not its echo, write, …), every tool of web; keyed is held back.
    expect(first!.toolNames.filter((name) => name.startsWith('mcp__')).sort()).toEqual(['mcp__calc__add', 'mcp__web__shout']);
    const body = JSON.stringify(first!.body);
    expect(body).toContain('This MCP server runs in the OS sandbox');
    expect(first!.system).toContain("MCP server 'keyed' (.vscode/mcp.json) was not started: it needs the input 'token'");
    const results = JSON.stringify(second!.body);
    expect(results).toContain('42');
    expect(results).toContain('QUIET');
    expect(http.seen.length).toBeGreaterThan(0);
    // The server the role never used still ended with its task.
    expect(processesMarked(marker)).toEqual([]);
  });

  it('in a folder that is not trusted none starts: no tools, the HTTP server never reached, and the agent is told why', async () => {
    world.server.respondWith(() => textTurn('Nothing to use.'));
    const { code, stderr } = await run([]);
    expect(code).toBe(0);
    expect(stderr).toContain("MCP server 'calc' of .mcp.json (.mcp.json):");
    expect(stderr).toContain("MCP server 'web' of .vscode/mcp.json (.vscode/mcp.json):");
    // Which of them the folder's role reaches is the folder's configuration too.
    expect(stderr).toContain(
      "tools role 'calculator' names (.claude/agents/calculator.md): mcp__calc__add, mcp__web__*, mcp__keyed__shout",
    );
    const [first] = world.server.requests;
    expect(first!.toolNames.filter((name) => name.startsWith('mcp__'))).toEqual([]);
    expect(first!.system).toContain("MCP server 'calc' (.mcp.json) was not started: this folder is not trusted");
    expect(first!.system).toContain("MCP server 'web' (.vscode/mcp.json) was not started: this folder is not trusted");
    expect(http.seen).toEqual([]);
  });
});

describe('agent-team mcp-servers', () => {
  it('lists every server, where it was found, who names it and why one would not start', async () => {
    await mkdir(path.join(configHome, 'agent-team'));
    await writeFile(
      path.join(configHome, 'agent-team', 'mcp.json'),
      JSON.stringify({ mcpServers: { mine: { command: process.execPath, args: [mcpTestServer] } } }),
    );
    const { code, stdout } = await startCli(world.cliPath, ['mcp-servers', '--workspace', world.workspace, '--json'], {
      XDG_CONFIG_HOME: configHome,
    }).exited;
    expect(code).toBe(0);
    const listed = JSON.parse(stdout) as {
      servers: Array<{ name: string; file: string; status: string; reason?: string; roles: string[]; origin: string }>;
    };
    const byKey = Object.fromEntries(listed.servers.map((server) => [`${server.name}@${server.file}`, server]));
    expect(byKey['calc@.mcp.json']).toMatchObject({ status: 'untrusted', origin: 'workspace', roles: ['calculator'] });
    expect(byKey['web@.vscode/mcp.json']).toMatchObject({ status: 'untrusted', roles: ['calculator'] });
    expect(byKey['calc@.vscode/mcp.json']).toMatchObject({
      status: 'shadowed',
      reason: expect.stringContaining('.mcp.json has a server of the same name'),
    });
    expect(byKey['old@.vscode/mcp.json']).toMatchObject({ status: 'refused', reason: expect.stringContaining('SSE transport') });
    expect(byKey[`mine@${configHome}/agent-team/mcp.json`]).toMatchObject({ status: 'ready', origin: 'user', roles: [] });

    const text = await startCli(world.cliPath, ['mcp-servers', '--workspace', world.workspace], { XDG_CONFIG_HOME: configHome }).exited;
    expect(text.stdout).toContain(`calc  .mcp.json  stdio  ${process.execPath}`);
    expect(text.stdout).toContain('  untrusted: this folder is not trusted: run `agent-team trust` in it, or pass --trust');
    expect(text.stdout).toContain('  named by: calculator');
    const agents = await startCli(world.cliPath, ['agents', '--workspace', world.workspace], {}).exited;
    expect(agents.stdout).toMatch(/calculator[^]*also names: mcp__calc__add, mcp__web__\*, mcp__keyed__shout/);
  });
});
