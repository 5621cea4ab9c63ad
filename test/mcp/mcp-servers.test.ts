/**
 * Roles' MCP servers through the official SDK: a stdio server written for the tests and a streamable
 * HTTP one, started for a task, their tools called, closed when the task ends; a server that fails costs
 * only its own tools; none starts where the host does not allow it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type McpHost, startRoleMcpServers } from '../../src/engine/mcp/mcp-role-tools.js';
import { readMcpServers } from '../../src/engine/roles/mcp-server-config.js';
import { mcpToolName } from '../../src/engine/mcp/mcp-tool-names.js';
import { startHttpMcpServer } from '../support/mcp-http-test-server.js';

const testServer = path.resolve(__dirname, '../support/mcp-test-server.mjs');
let directory: string;
const pidFile = () => path.join(directory, 'server.pid');
const host = (allowed = true): McpHost => ({
  allowed: () => allowed,
  cwd: directory,
  environment: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-ant-secret', GITHUB_TOKEN: 'ghp_secret', VISIBLE: 'yes' },
});
const stdio = (extra: string[] = []) => ({
  type: 'stdio' as const,
  command: process.execPath,
  args: [testServer, ...extra],
  env: { MCP_PID_FILE: pidFile(), ROLE_SETTING: 'on' },
});
const signal = () => new AbortController().signal;
/** The task servers start for (outside a sandbox, only its signal matters). */
const task = () => ({ rootId: 't1', proposals: async () => [], signal: signal() });
const processGone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'agent-team-mcp-'));
});

afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('mcpServers in a role file', () => {
  it('reads stdio and http servers, and says what is wrong with the rest', () => {
    expect(
      readMcpServers({
        files: { command: 'npx', args: ['server'] },
        web: { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer x' } },
      }),
    ).toEqual({
      servers: {
        files: { type: 'stdio', command: 'npx', args: ['server'], env: {} },
        web: { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer x' } },
      },
      problems: [],
    });
    expect(readMcpServers({ 'bad name': { command: 'x' } }).problems).toEqual([
      "MCP server name 'bad name' must be 1 to 32 letters, digits, '-' or '_'",
    ]);
    expect(readMcpServers({ files: {} }).problems).toEqual(["MCP server 'files': 'command' must be the program to start"]);
    expect(readMcpServers({ files: { command: 'x', args: [1] } }).problems).toEqual([
      "MCP server 'files': 'args' must be a list of strings",
    ]);
    expect(readMcpServers({ web: { type: 'http', url: 'ftp://x' } }).problems).toEqual([
      "MCP server 'web': 'url' must be an http(s) address",
    ]);
    expect(readMcpServers({ web: { type: 'sse', url: 'https://x' } }).problems).toEqual([
      "MCP server 'web': unknown type 'sse' (use stdio or http)",
    ]);
    expect(readMcpServers(['x']).problems[0]).toMatch(/must be a map/);
  });

  it('names tools mcp__<server>__<tool>, within 64 safe characters and without collisions', () => {
    expect(mcpToolName('files', 'read_file')).toBe('mcp__files__read_file');
    const dotted = mcpToolName('files', 'read.file');
    expect(dotted).toMatch(/^mcp__files__read_file_[0-9a-f]{8}$/);
    expect(dotted).not.toBe(mcpToolName('files', 'read_file'));
    const long = mcpToolName('server', 'x'.repeat(100));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

describe('a role\u2019s MCP servers for one task', () => {
  it('starts a stdio server, offers its tools, calls them, and stops it when closed', async () => {
    const started = await startRoleMcpServers({ calc: stdio() }, host(), task());
    expect(started.problems).toEqual([]);
    expect(started.tools.map((tool) => tool.name).sort()).toEqual([
      'mcp__calc__add',
      'mcp__calc__echo',
      'mcp__calc__environment',
      'mcp__calc__fail',
      'mcp__calc__huge',
      'mcp__calc__probe',
      'mcp__calc__write',
    ]);
    const tool = (name: string) => started.tools.find((candidate) => candidate.name === name)!;
    const context = { signal: signal(), toolCallId: 'c1' };
    expect(await tool('mcp__calc__add').execute({ a: 2, b: 3 }, context)).toBe('5');
    expect(await tool('mcp__calc__echo').execute({ text: 'hi' }, context)).toBe('echo: hi');
    await expect(tool('mcp__calc__fail').execute({}, context)).rejects.toThrow('the widget is broken');
    // Its own env, and of the parent's what a command gets (an allowlist): not keys, tokens or anything else.
    const variables = (await tool('mcp__calc__environment').execute({}, context)).split(',');
    expect(variables).toEqual(expect.arrayContaining(['ROLE_SETTING', 'PATH']));
    expect(variables).not.toContain('VISIBLE');
    expect(variables).not.toContain('ANTHROPIC_API_KEY');
    expect(variables).not.toContain('GITHUB_TOKEN');
    expect(tool('mcp__calc__add').jsonSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
    });
    // A schema too large to send with every request is shown as a plain object; the server checks the input.
    expect(tool('mcp__calc__huge').jsonSchema).toEqual({ type: 'object' });
    const pid = Number(readFileSync(pidFile(), 'utf8'));
    await started.close();
    expect(processGone(pid)).toBe(true);
  });

  it('a server that does not start costs only its own tools, with a readable reason', async () => {
    const started = await startRoleMcpServers(
      {
        calc: stdio(),
        missing: { type: 'stdio', command: path.join(directory, 'no-such-program'), args: [], env: {} },
        broken: { ...stdio(['--crash']), env: {} },
      },
      host(),
      task(),
    );
    try {
      expect(started.tools.map((tool) => tool.name)).toContain('mcp__calc__add');
      expect(started.problems).toHaveLength(2);
      expect(started.problems.find((problem) => problem.includes("'missing'"))).toMatch(
        /^MCP server 'missing' did not start: .*ENOENT|not found|spawn/i,
      );
      expect(started.problems.find((problem) => problem.includes("'broken'"))).toMatch(/did not start: .*cannot open the database/);
    } finally {
      await started.close();
    }
  });

  it('starts nothing where the host does not allow it (Restricted Mode), and says so', async () => {
    const started = await startRoleMcpServers({ calc: stdio() }, host(false), task());
    expect(started.tools).toEqual([]);
    expect(started.problems).toEqual([
      "MCP server 'calc' was not started: this folder is not trusted (VS Code: Manage Workspace Trust; the CLI: agent-team trust, or --trust).",
    ]);
    expect(existsSync(pidFile())).toBe(false);
  });

  it('talks streamable HTTP to a server, with the headers the role file gives', async () => {
    const server = await startHttpMcpServer();
    try {
      const started = await startRoleMcpServers(
        { web: { type: 'http', url: server.url, headers: { Authorization: 'Bearer role-token' } } },
        host(),
        task(),
      );
      expect(started.problems).toEqual([]);
      expect(await started.tools[0]!.execute({ text: 'quiet' }, { signal: signal(), toolCallId: 'c1' })).toBe('QUIET');
      await started.close();
      expect(server.seen.length).toBeGreaterThan(0);
      expect(server.seen.every((header) => header === 'Bearer role-token')).toBe(true);
    } finally {
      await server.close();
    }
  });
});
