/**
 * What a folder would run, and its hash: the folder's own settings files' hooks and role files' servers
 * and remote agents, exactly as written; never the user's own or the built-ins; a changed command,
 * argument, environment value or header changes the hash, the order of listing does not.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtInRoles } from '../../src/engine/roles/built-in/index.js';
import type { RoleDefinition } from '../../src/engine/roles/types.js';
import { configurationHash, readFolderConfiguration } from '../../src/engine/team/folder-configuration.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'agent-team-folder-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const role = (name: string, sourcePath: string, extra: Partial<RoleDefinition>): RoleDefinition => ({
  name,
  description: name,
  instruction: '',
  mode: 'task',
  source: { kind: 'file', path: sourcePath, format: 'claude' },
  ...extra,
});

const workspaceRole = role('researcher', '.claude/agents/researcher.md', {
  mcpServers: {
    calc: { type: 'stdio', command: 'node', args: ['server.js', 'two words'], env: { MODE: 'fast' } },
    docs: { type: 'http', url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer t0ken' } },
  },
});
const remoteRole = role('helper', '.agent-team/agents/helper.md', { a2aUrl: 'https://agents.example/helper', a2aAuthEnv: 'HELPER_TOKEN' });
const usersRole = role('linter', '~/.claude/agents/linter.md', {
  mcpServers: { lint: { type: 'stdio', command: 'lint-server', args: [], env: {} } },
});

async function settings(file: string, command: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(
    path.join(root, file),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } }),
  );
}

describe('a folder\u2019s executable configuration', () => {
  it('lists its hooks and its role files\u2019 servers and remote agents, exactly; not the user\u2019s roles, not the built-ins', async () => {
    await settings('.claude/settings.json', 'node .claude/hooks/guard.js');
    const listed = await readFolderConfiguration({ root, roles: [...builtInRoles, workspaceRole, remoteRole, usersRole] });
    expect(listed.items.map(({ kind, file, what, runs }) => ({ kind, file, what, runs }))).toEqual([
      { kind: 'hook', file: '.claude/settings.json', what: 'PreToolUse [Bash] hook', runs: 'node .claude/hooks/guard.js' },
      {
        kind: 'mcp-server',
        file: '.claude/agents/researcher.md',
        what: "MCP server 'calc' of role 'researcher'",
        runs: 'MODE=fast node server.js "two words"',
      },
      {
        kind: 'mcp-server',
        file: '.claude/agents/researcher.md',
        what: "MCP server 'docs' of role 'researcher'",
        runs: 'https://docs.example/mcp (headers: Authorization)',
      },
      {
        kind: 'remote-agent',
        file: '.agent-team/agents/helper.md',
        what: "remote agent of role 'helper'",
        runs: 'https://agents.example/helper',
      },
    ]);
    expect(listed.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(JSON.stringify(listed.items.map((item) => item.runs))).not.toContain('t0ken');
  });

  it('is empty for a folder that defines nothing that runs', async () => {
    const listed = await readFolderConfiguration({ root, roles: [...builtInRoles, usersRole] });
    expect(listed.items).toEqual([]);
  });

  it('hashes what decides what runs: a changed hook command, argument, environment value or header changes it; the order does not', async () => {
    await settings('.claude/settings.json', 'node guard.js');
    const base = (await readFolderConfiguration({ root, roles: [workspaceRole] })).hash;
    expect((await readFolderConfiguration({ root, roles: [workspaceRole] })).hash).toBe(base);
    const variants: RoleDefinition[] = [
      {
        ...workspaceRole,
        mcpServers: {
          ...workspaceRole.mcpServers,
          calc: { type: 'stdio', command: 'node', args: ['server.js', 'two', 'words'], env: { MODE: 'fast' } },
        },
      },
      {
        ...workspaceRole,
        mcpServers: {
          ...workspaceRole.mcpServers,
          calc: { type: 'stdio', command: 'node', args: ['server.js', 'two words'], env: { MODE: 'slow' } },
        },
      },
      {
        ...workspaceRole,
        mcpServers: {
          ...workspaceRole.mcpServers,
          docs: { type: 'http', url: 'https://docs.example/mcp', headers: { Authorization: 'Bearer other' } },
        },
      },
    ];
    for (const variant of variants) expect((await readFolderConfiguration({ root, roles: [variant] })).hash).not.toBe(base);
    await settings('.claude/settings.json', 'node guard.js --fix');
    expect((await readFolderConfiguration({ root, roles: [workspaceRole] })).hash).not.toBe(base);
    const listed = await readFolderConfiguration({ root, roles: [workspaceRole] });
    expect(configurationHash([...listed.items].reverse())).toBe(listed.hash);
  });
});
