/**
 * A sandboxed MCP server's scratch copy: acquired for its task's tree and brought to the task's view when
 * it starts, held while it runs (no command's copy is swapped under it), given back once it has exited,
 * and given back broken when it could not start: with a recording stand-in over a real folder, then with
 * both real kinds of copy. The server runs in the real bubblewrap.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandCopy } from '../../src/engine/commands/command-copy.js';
import type { CommandHost } from '../../src/engine/commands/command-host.js';
import { createCommandHost } from '../../src/engine/commands/create-command-host.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { commitAll, copyKinds } from '../commands/bash-support.js';
import { serverSandbox } from '../../src/engine/commands/sandbox/server-launch.js';
import type { ProposedFile } from '../../src/engine/file-tools/task-tools.js';
import { startRoleMcpServers } from '../../src/engine/mcp/mcp-role-tools.js';
import { mcpTestServer } from '../support/calculator-role.js';

let root: string;
let events: string[];

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'agent-team-server-copy-')));
  mkdirSync(path.join(root, 'copy'));
  mkdirSync(path.join(root, 'workspace'));
  events = [];
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A copy that is a plain folder: `prepare` writes the proposals into it. */
function folderCopy(): CommandCopy {
  const cwd = path.join(root, 'copy');
  return {
    kind: 'folder',
    cwd,
    sandboxPaths: { writable: [cwd], readOnly: [] },
    linked: [],
    async prepare(proposals: readonly ProposedFile[]) {
      events.push(`prepare ${proposals.map((file) => file.path).join(',')}`);
      for (const file of proposals) writeFileSync(path.join(cwd, file.path), file.content);
    },
    launch: (launch) => launch,
    changedFiles: async () => [],
    changedFilePath: (file) => path.join(cwd, file),
    remove: async () => undefined,
  };
}

function commandsWith(copy: CommandCopy): CommandHost {
  const copies = {
    acquire: async (rootId: string) => (events.push(`acquire ${rootId}`), copy),
    release: (rootId: string, _copy: CommandCopy, options: { broken?: boolean } = {}) =>
      events.push(`release ${rootId}${options.broken ? ' broken' : ''}`),
  };
  return {
    refusal: () => undefined,
    allowedPatterns: () => [],
    howToAllow: '',
    copies: copies as unknown as CommandHost['copies'],
    environment: () => ({ PATH: process.env.PATH ?? '' }),
    sandbox: async () => ({ mode: 'sandbox', availability: { available: true, mechanism: 'bubblewrap', executable: '/usr/bin/bwrap' } }),
    network: { all: () => false, patterns: () => [] },
    workspaceRoot: path.join(root, 'workspace'),
    userHome: path.join(root, 'home'),
    howToRunUnsandboxed: '',
    limits: { cpuSeconds: 600, fileBytes: 1024 ** 3, processes: 4096 },
  };
}

const task = (proposals: ProposedFile[] = []) => ({
  rootId: 'root-1',
  proposals: async () => proposals,
  signal: new AbortController().signal,
});

describe.skipIf(process.platform !== 'linux')('a sandboxed server\u2019s scratch copy', () => {
  it('is prepared with the task\u2019s proposals, held while the server runs, and given back once it has exited', async () => {
    const commands = commandsWith(folderCopy());
    const host = { allowed: () => true, cwd: path.join(root, 'workspace'), sandbox: serverSandbox(commands) };
    const started = await startRoleMcpServers(
      { probe: { type: 'stdio', command: process.execPath, args: [mcpTestServer], env: {} } },
      host,
      task([{ path: 'draft.md', content: 'Proposed.\n' }]),
    );
    expect(started.problems).toEqual([]);
    const probe = started.tools.find((tool) => tool.name === 'mcp__probe__probe')!;
    expect(probe.description).toContain('its writes are discarded');
    expect(await probe.execute({ paths: ['draft.md'] }, { signal: new AbortController().signal, toolCallId: 'c1' })).toBe(
      'draft.md: Proposed.\n',
    );
    expect(events).toEqual(['acquire root-1', 'prepare draft.md']);
    await started.close();
    expect(events).toEqual(['acquire root-1', 'prepare draft.md', 'release root-1']);
    expect(readFileSync(path.join(root, 'copy', 'draft.md'), 'utf8')).toBe('Proposed.\n');
  });

  it('is given back broken when the server cannot start in it', async () => {
    const commands = commandsWith({ ...folderCopy(), prepare: async () => Promise.reject(new Error('disk full')) });
    const host = { allowed: () => true, cwd: path.join(root, 'workspace'), sandbox: serverSandbox(commands) };
    const started = await startRoleMcpServers(
      { probe: { type: 'stdio', command: process.execPath, args: [mcpTestServer], env: {} } },
      host,
      task(),
    );
    expect(started.problems).toEqual([
      "MCP server 'probe' did not start: its scratch copy of the workspace could not be made ready: disk full",
    ]);
    expect(events).toEqual(['acquire root-1', 'release root-1 broken']);
  });
});

describe.skipIf(process.platform !== 'linux').each(copyKinds)('a sandboxed server in the %s scratch copy', (copyKind) => {
  it('sees tracked files and the proposals, not the ignored .env; its writes stay in the copy; the copy is held until it closes', async () => {
    const workspace = path.join(root, 'workspace');
    writeFileSync(path.join(workspace, 'notes.md'), 'Tracked.\n');
    writeFileSync(path.join(workspace, '.gitignore'), '.env\n');
    commitAll(workspace);
    writeFileSync(path.join(workspace, '.env'), 'TOKEN=canary-dotenv\n');
    const commands = createCommandHost({
      workspaceRoot: workspace,
      taskManager: new TaskManager({ onWarning: () => {} }),
      allowedPatterns: () => [],
      howToAllow: '',
      scratchDirectory: path.join(root, 'scratch'),
      scratchCopyKind: copyKind,
      userHome: path.join(root, 'home'),
    });
    try {
      const host = { allowed: () => true, cwd: workspace, sandbox: serverSandbox(commands) };
      const started = await startRoleMcpServers(
        { probe: { type: 'stdio', command: process.execPath, args: [mcpTestServer], env: {} } },
        host,
        task([{ path: 'draft.md', content: 'Proposed.\n' }]),
      );
      expect(started.problems).toEqual([]);
      const call = (name: string, input: Record<string, unknown>) =>
        started.tools
          .find((tool) => tool.name === `mcp__probe__${name}`)!
          .execute(input, { signal: new AbortController().signal, toolCallId: 'c1' });
      expect(await call('probe', { paths: ['notes.md', 'draft.md', '.env'] })).toBe(
        'notes.md: Tracked.\n\ndraft.md: Proposed.\n\n.env: unreadable (ENOENT)',
      );
      expect(await call('write', { path: 'notes.md', text: 'overwritten' })).toBe('wrote notes.md');
      // Held: a command of the tree that runs meanwhile gets a copy of its own.
      const meanwhile = await commands.copies.acquire('root-1');
      expect(commands.copies.count('root-1')).toBe(2);
      commands.copies.release('root-1', meanwhile);
      await started.close();
      expect(readFileSync(path.join(workspace, 'notes.md'), 'utf8')).toBe('Tracked.\n');
      // Given back: two commands at once now reuse both copies; no third is made.
      const copies = [await commands.copies.acquire('root-1'), await commands.copies.acquire('root-1')];
      expect(commands.copies.count('root-1')).toBe(2);
      for (const copy of copies) commands.copies.release('root-1', copy);
    } finally {
      await commands.dispose();
    }
  });
});

describe.skipIf(process.platform !== 'linux')('a sandboxed server installed in the home', () => {
  it('starts from ~/.local/bin through its link (a pipx-style install), with the rest of the home hidden', async () => {
    const workspace = path.join(root, 'workspace');
    writeFileSync(path.join(workspace, 'notes.md'), 'Tracked.\n');
    commitAll(workspace);
    const home = path.join(root, 'home');
    const installed = path.join(home, '.local/share/tools/probe/bin/probe-server');
    mkdirSync(path.dirname(installed), { recursive: true });
    // The test server's script is named on the command line: in a clone under /tmp that is how it stays in view (server-temporary-files.ts).
    writeFileSync(installed, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} "$1"\n`, { mode: 0o755 });
    mkdirSync(path.join(home, '.local/bin'), { recursive: true });
    symlinkSync(installed, path.join(home, '.local/bin/probe-server'));
    writeFileSync(path.join(home, '.bash_history'), 'canary-history\n');
    const userPath = `${path.join(home, '.local/bin')}:${process.env.PATH ?? ''}`;
    const commands = createCommandHost({
      workspaceRoot: workspace,
      taskManager: new TaskManager({ onWarning: () => {} }),
      allowedPatterns: () => [],
      howToAllow: '',
      scratchDirectory: path.join(root, 'scratch'),
      userHome: home,
      sourceEnvironment: { PATH: userPath },
    });
    try {
      const host = { allowed: () => true, cwd: workspace, environment: { PATH: userPath }, sandbox: serverSandbox(commands) };
      const started = await startRoleMcpServers(
        { probe: { type: 'stdio', command: 'probe-server', args: [mcpTestServer], env: {} } },
        host,
        task(),
      );
      expect(started.problems).toEqual([]);
      const probe = started.tools.find((tool) => tool.name === 'mcp__probe__probe')!;
      expect(
        await probe.execute(
          { paths: ['notes.md', path.join(home, '.bash_history')] },
          { signal: new AbortController().signal, toolCallId: 'c1' },
        ),
      ).toBe(`notes.md: Tracked.\n\n${path.join(home, '.bash_history')}: unreadable (ENOENT)`);
      await started.close();
    } finally {
      await commands.dispose();
    }
  });
});

describe.skipIf(process.platform !== 'linux')('a sandboxed server started with npx', () => {
  it("starts without the network from the workspace's node_modules", async () => {
    const workspace = path.join(root, 'workspace');
    writeFileSync(path.join(workspace, '.gitignore'), 'node_modules\n');
    const packageFolder = path.join(workspace, 'node_modules/probe-server');
    mkdirSync(packageFolder, { recursive: true });
    writeFileSync(
      path.join(packageFolder, 'package.json'),
      JSON.stringify({ name: 'probe-server', version: '1.0.0', bin: { 'probe-server': 'server.mjs' } }),
    );
    writeFileSync(path.join(packageFolder, 'server.mjs'), '#!/usr/bin/env node\nawait import(process.argv[2]);\n', { mode: 0o755 });
    mkdirSync(path.join(workspace, 'node_modules/.bin'));
    symlinkSync('../probe-server/server.mjs', path.join(workspace, 'node_modules/.bin/probe-server'));
    writeFileSync(
      path.join(workspace, 'package.json'),
      JSON.stringify({ name: 'project', version: '1.0.0', dependencies: { 'probe-server': '1.0.0' } }),
    );
    commitAll(workspace);
    const commands = createCommandHost({
      workspaceRoot: workspace,
      taskManager: new TaskManager({ onWarning: () => {} }),
      allowedPatterns: () => [],
      howToAllow: '',
      scratchDirectory: path.join(root, 'scratch'),
      userHome: path.join(root, 'home'),
    });
    try {
      const host = { allowed: () => true, cwd: workspace, sandbox: serverSandbox(commands) };
      const started = await startRoleMcpServers(
        { probe: { type: 'stdio', command: 'npx', args: ['probe-server', mcpTestServer], env: {} } },
        host,
        task(),
      );
      expect(started.problems).toEqual([]);
      expect(started.tools.map((tool) => tool.name)).toContain('mcp__probe__probe');
      await started.close();
    } finally {
      await commands.dispose();
    }
  });
});
