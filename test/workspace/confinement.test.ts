import { execFileSync } from 'node:child_process';
import { symlink } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { WorkspaceError } from '../../src/engine/errors.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { resolvePolicy } from '../../src/engine/workspace/policy.js';
import { createWorkspaceTools } from '../../src/engine/file-tools/tools/create-workspace-tools.js';
import { runTool } from './run-tool.js';
import { tempTrees } from './temp-tree.js';

const trees = tempTrees();
afterEach(() => trees.cleanupAll());

async function kindOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WorkspaceError) return error.kind;
    throw error;
  }
  return 'no error';
}

async function setup() {
  const outside = await trees.create({ 'secret.txt': 'outside secret\n', 'dir/inner.txt': 'outside inner\n' });
  const tree = await trees.create({ 'src/a.ts': 'export const a = 1;\n', '.git/config': '[core]\n' });
  await symlink(outside.path('secret.txt'), tree.path('link-to-secret.txt'));
  await symlink(outside.path('dir'), tree.path('linked-dir'));
  await symlink(tree.path('src/a.ts'), tree.path('inside-link.ts'));
  await symlink(nodePath.join(outside.root, 'missing.txt'), tree.path('dangling.txt'));
  const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null });
  const changeSet = new ChangeSet({ taskId: 't1', role: 'coder' });
  const tools = createWorkspaceTools({ workspace, changeSet });
  return { tree, outside, workspace, changeSet, tools: [...tools.readOnly, ...tools.edit] };
}

describe('path confinement', () => {
  it('refuses absolute paths outside, .. escapes and symlinks that lead outside', async () => {
    const { workspace, outside } = await setup();
    expect(await kindOf(workspace.readText(outside.path('secret.txt')))).toBe('outside-workspace');
    expect(await kindOf(workspace.readText('../secret.txt'))).toBe('outside-workspace');
    expect(await kindOf(workspace.readText('src/../../secret.txt'))).toBe('outside-workspace');
    expect(await kindOf(workspace.readText('link-to-secret.txt'))).toBe('outside-workspace');
    expect(await kindOf(workspace.readText('linked-dir/inner.txt'))).toBe('outside-workspace');
    expect(await kindOf(workspace.stat('link-to-secret.txt'))).toBe('outside-workspace');
  });

  it('follows symlinks that stay inside the workspace', async () => {
    const { workspace, tree } = await setup();
    expect(await workspace.readText('inside-link.ts')).toBe('export const a = 1;\n');
    expect(await workspace.readText(tree.path('src/a.ts'))).toBe('export const a = 1;\n');
  });

  it('opens a path said to be resolved as it is only while it still is: through a link it is resolved again and confined', async () => {
    const { workspace, tools } = await setup();
    expect(await workspace.readText('src/a.ts', { resolved: true })).toBe('export const a = 1;\n');
    // A folder along it leads elsewhere (as a link swapped in after the caller resolved it would).
    expect(await kindOf(workspace.readText('linked-dir/inner.txt', { resolved: true }))).toBe('outside-workspace');
    // Its last part is a link: never opened through.
    expect(await kindOf(workspace.readText('inside-link.ts', { resolved: true }))).toBe('conflict');
    // The Read tool resolves first, so a link inside the workspace still reads.
    expect(await runTool(tools, 'Read', { file_path: 'inside-link.ts' })).toContain('export const a = 1;');
  });

  it('never writes outside: not through symlinked files, symlinked directories or dangling links', async () => {
    const { workspace, outside } = await setup();
    expect(await kindOf(workspace.writeText('link-to-secret.txt', 'pwned'))).toBe('outside-workspace');
    expect(await kindOf(workspace.writeText('linked-dir/new.txt', 'pwned'))).toBe('outside-workspace');
    expect(await kindOf(workspace.writeText('linked-dir/deeper/new.txt', 'pwned'))).toBe('outside-workspace');
    expect(await kindOf(workspace.writeText('dangling.txt', 'pwned'))).toBe('outside-workspace');
    expect(await kindOf(workspace.writeText('../escape.txt', 'pwned'))).toBe('outside-workspace');
    expect(await outside.read('secret.txt')).toBe('outside secret\n');
    expect(await workspace.stat(nodePath.join(outside.root, 'missing.txt')).catch(() => 'refused')).toBe('refused');
  });

  it('the tools give the model the same refusals as clear errors', async () => {
    const { tools } = await setup();
    await expect(runTool(tools, 'Read', { file_path: '../secret.txt' })).rejects.toThrow(/outside the workspace/);
    await expect(runTool(tools, 'Read', { file_path: 'link-to-secret.txt' })).rejects.toThrow(/outside the workspace/);
    await expect(runTool(tools, 'Write', { file_path: '/tmp/agent-team-escape.txt', content: 'x' })).rejects.toThrow(
      /outside the workspace/,
    );
    await expect(runTool(tools, 'Grep', { pattern: 'secret', path: '..' })).rejects.toThrow(/outside the workspace/);
    await expect(runTool(tools, 'Glob', { pattern: '*', path: '../' })).rejects.toThrow(/outside the workspace/);
  });
});

describe('.git is never writable', () => {
  it('refuses writes to .git in the workspace, the change set and the edit tools', async () => {
    const { workspace, changeSet, tools, tree } = await setup();
    expect(await kindOf(workspace.writeText('.git/config', 'x'))).toBe('read-only');
    expect(await kindOf(workspace.writeText('.git/hooks/pre-commit', 'x'))).toBe('read-only');
    expect(await kindOf(workspace.writeText('sub/.git/HEAD', 'x'))).toBe('read-only');
    expect(() => changeSet.propose('.git/config', { baseContent: '[core]\n', proposedContent: 'x' })).toThrow(/version-control/);
    await expect(runTool(tools, 'Edit', { file_path: '.git/config', old_string: '[core]', new_string: '[x]' })).rejects.toThrow(
      /version-control internals/,
    );
    await expect(runTool(tools, 'Write', { file_path: '.GIT/hooks/post-checkout', content: 'rm -rf /' })).rejects.toThrow(
      /version-control internals/,
    );
    expect(changeSet.paths()).toEqual([]);
    expect(await tree.read('.git/config')).toBe('[core]\n');
  });
});

describe('sensitive files', () => {
  it('are not read by default, and the error says how to allow them', async () => {
    const tree = await trees.create({
      '.env': 'API_KEY=sk-live\n',
      'certs/server.pem': 'KEY\n',
      '.env.example': 'API_KEY=\n',
      id_ed25519: 'k',
    });
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null });
    const { readOnly } = createWorkspaceTools({ workspace, changeSet: new ChangeSet({ taskId: 't', role: 'r' }) });
    await expect(runTool(readOnly, 'Read', { file_path: '.env' })).rejects.toThrow(/may hold secrets.*allowedSensitivePatterns/);
    await expect(runTool(readOnly, 'Read', { file_path: 'certs/server.pem' })).rejects.toThrow(/may hold secrets/);
    await expect(runTool(readOnly, 'Read', { file_path: 'id_ed25519' })).rejects.toThrow(/may hold secrets/);
    expect(await runTool(readOnly, 'Read', { file_path: '.env.example' })).toContain('API_KEY=');
    // Their content does not leak through search either.
    expect(await runTool(readOnly, 'Grep', { pattern: 'API_KEY' })).toBe('.env.example:1: API_KEY=');
  });

  it('can be allowed through the policy', async () => {
    const tree = await trees.create({ '.env': 'API_KEY=dev\n' });
    const policy = resolvePolicy({ allowedSensitivePatterns: ['.env'] });
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null, policy });
    const { readOnly } = createWorkspaceTools({ workspace, changeSet: new ChangeSet({ taskId: 't', role: 'r' }), policy });
    expect(await runTool(readOnly, 'Read', { file_path: '.env' })).toContain('API_KEY=dev');
  });
});

describe('file kinds and sizes', () => {
  it('refuses binary and non-UTF-8 files for reading and editing', async () => {
    const tree = await trees.create({
      'image.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
      'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    });
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null });
    const { readOnly, edit } = createWorkspaceTools({ workspace, changeSet: new ChangeSet({ taskId: 't', role: 'r' }) });
    await expect(runTool(readOnly, 'Read', { file_path: 'image.png' })).rejects.toThrow(/binary file/);
    await expect(runTool(edit, 'Edit', { file_path: 'image.png', old_string: 'PNG', new_string: 'GIF' })).rejects.toThrow(/binary file/);
    await expect(runTool(edit, 'Write', { file_path: 'image.png', content: 'text now' })).rejects.toThrow(/binary file/);
    await expect(runTool(edit, 'Write', { file_path: 'new.bin', content: 'a\0b' })).rejects.toThrow(/NUL bytes/);
    await expect(runTool(edit, 'Edit', { file_path: 'latin1.txt', old_string: 'caf', new_string: 'tea' })).rejects.toThrow(
      /not valid UTF-8/,
    );
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO at once instead of waiting for a writer, and a directory', async () => {
    const tree = await trees.create({ 'src/a.ts': 'export const a = 1;\n' });
    execFileSync('mkfifo', [tree.path('pipe')]);
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null });
    const { readOnly } = createWorkspaceTools({ workspace, changeSet: new ChangeSet({ taskId: 't', role: 'r' }) });
    await expect(runTool(readOnly, 'Read', { file_path: 'pipe' })).rejects.toThrow(/pipe is not a regular file/);
    await expect(runTool(readOnly, 'Read', { file_path: 'src' })).rejects.toThrow(/src is a directory, not a file/);
  });

  it('refuses to edit files over the edit limit, before or after the edit', async () => {
    const tree = await trees.create({ 'big.txt': 'x'.repeat(2000), 'small.txt': 'small\n' });
    const policy = resolvePolicy({ maxEditFileBytes: 1000 });
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null, policy });
    const { edit } = createWorkspaceTools({ workspace, changeSet: new ChangeSet({ taskId: 't', role: 'r' }), policy });
    await expect(runTool(edit, 'Edit', { file_path: 'big.txt', old_string: 'xx', new_string: 'y', replace_all: true })).rejects.toThrow(
      /over the 1000 B limit for editing/,
    );
    await expect(runTool(edit, 'Write', { file_path: 'small.txt', content: 'y'.repeat(1001) })).rejects.toThrow(/limit for editing/);
  });
});
