/**
 * A role file is an instruction to the agents: only a regular file inside the workspace is loaded. A link
 * leading out of it, a FIFO (which would block a read forever) or a device such as /dev/zero (which would
 * never end) is skipped with a diagnostic that says why; the other roles still load.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRoles } from '../../src/engine/roles/load-roles.js';
import { NodeRoleFileSource } from '../../src/engine/roles/node-role-file-source.js';
import { roleFile, useTemporaryWorkspaces } from './workspace-fixture.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const createWorkspace = useTemporaryWorkspaces();
const outsideFolders: string[] = [];
afterEach(async () => {
  await Promise.all(outsideFolders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function workspaceWithGoodRole() {
  const workspace = await createWorkspace();
  await workspace.write('.agent-team/agents/good.md', roleFile('description: Still loads.'));
  const at = (relative: string) => path.join(workspace.root, ...relative.split('/'));
  return { workspace, at };
}

async function load(source: NodeRoleFileSource) {
  const result = await loadRoles(source, knownToolNames);
  expect(result.roles.map((role) => role.name)).toContain('good');
  return result;
}

describe('role files that are not plain files inside the workspace', () => {
  it('skips a link to a role file outside the workspace, saying why', async () => {
    const { workspace, at } = await workspaceWithGoodRole();
    const outside = await mkdtemp(path.join(tmpdir(), 'agent-team-outside-'));
    outsideFolders.push(outside);
    await writeFile(path.join(outside, 'evil.md'), roleFile('description: Planted from outside.'));
    await symlink(path.join(outside, 'evil.md'), at('.agent-team/agents/evil.md'));
    const { roles, diagnostics } = await load(workspace.source);
    expect(roles.some((role) => role.name === 'evil')).toBe(false);
    expect(diagnostics).toEqual([
      {
        path: '.agent-team/agents/evil.md',
        severity: 'error',
        message: 'could not be read: it is (or lies under) a symbolic link that leads outside the workspace',
      },
    ]);
  });

  it('skips the files of a role directory that is itself a link leading outside', async () => {
    const { workspace, at } = await workspaceWithGoodRole();
    const outside = await mkdtemp(path.join(tmpdir(), 'agent-team-outside-'));
    outsideFolders.push(outside);
    await mkdir(path.join(outside, 'agents'));
    await writeFile(path.join(outside, 'agents', 'planted.md'), roleFile('description: Planted.'));
    await symlink(outside, at('.claude'));
    const { roles, diagnostics } = await load(workspace.source);
    expect(roles.some((role) => role.name === 'planted')).toBe(false);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        path: '.claude/agents/planted.md',
        message: expect.stringMatching(/symbolic link that leads outside the workspace/),
      }),
    ]);
  });

  it('loads a link to a role file elsewhere inside the workspace', async () => {
    const { workspace, at } = await workspaceWithGoodRole();
    await workspace.write('shared/roles/linked.md', roleFile('description: Shared inside the repository.'));
    await symlink(path.join('..', '..', 'shared', 'roles', 'linked.md'), at('.agent-team/agents/linked.md'));
    const { roles, diagnostics } = await load(workspace.source);
    expect(roles.find((role) => role.name === 'linked')?.description).toBe('Shared inside the repository.');
    expect(diagnostics).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')('does not hang on a FIFO named like a role file', async () => {
    const { workspace, at } = await workspaceWithGoodRole();
    execFileSync('mkfifo', [at('.agent-team/agents/pipe.md')]);
    await symlink('pipe.md', at('.agent-team/agents/pipe-link.md'));
    const { diagnostics } = await load(workspace.source);
    expect(diagnostics.map((diagnostic) => [diagnostic.path, diagnostic.message])).toEqual([
      ['.agent-team/agents/pipe-link.md', 'could not be read: it is not a regular file (a FIFO), so it is not read'],
      ['.agent-team/agents/pipe.md', 'could not be read: it is not a regular file (a FIFO), so it is not read'],
    ]);
  });

  it.skipIf(process.platform === 'win32')('does not read /dev/zero through a link', async () => {
    const { workspace, at } = await workspaceWithGoodRole();
    await symlink('/dev/zero', at('.agent-team/agents/zero.md'));
    const { diagnostics } = await load(workspace.source);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        path: '.agent-team/agents/zero.md',
        message: expect.stringMatching(/symbolic link that leads outside the workspace/),
      }),
    ]);
  });

  it.skipIf(process.platform === 'win32')('refuses a device even when the workspace itself is where it lives', async () => {
    // The workspace root is /dev here only to have a character device inside it; nothing is written.
    const source = new NodeRoleFileSource('/dev');
    await expect(source.read('zero')).rejects.toThrow('it is not a regular file (a device), so it is not read');
  });

  it('caps the size of a role file', async () => {
    const { workspace } = await workspaceWithGoodRole();
    await workspace.write('.agent-team/agents/huge.md', roleFile('description: Huge.', 'x'.repeat(2048)));
    const { diagnostics } = await load(new NodeRoleFileSource(workspace.root, 1024));
    expect(diagnostics).toEqual([
      {
        path: '.agent-team/agents/huge.md',
        severity: 'error',
        message: 'could not be read: it is 2 KB, over the 1 KB limit for a role file, so it is not read',
      },
    ]);
  });

  it.skipIf(process.platform === 'win32')(
    'refuses a link to a secret inside the workspace, naming the rule and not the content',
    async () => {
      const { workspace, at } = await workspaceWithGoodRole();
      const secret = 'sk-secret-0123456789abcdef';
      await workspace.write('.env', roleFile(`description: ${secret}`));
      await mkdir(at('.claude/agents'), { recursive: true });
      await symlink('../../.env', at('.claude/agents/x.md'));
      const { roles, diagnostics } = await load(workspace.source);
      expect(roles.map((role) => role.name)).not.toContain('x');
      expect(diagnostics).toEqual([
        {
          path: '.claude/agents/x.md',
          severity: 'error',
          message:
            'could not be read: it is a symbolic link to .env, which may hold secrets (it matches **/.env); such files are never read, under any name',
        },
      ]);
    },
  );

  it.skipIf(process.platform === 'win32')("judges the user's own role folders in their home by the same rules", async () => {
    const home = await createWorkspace();
    await home.write('.aws/credentials', roleFile('description: aws_secret_access_key'));
    await mkdir(path.join(home.root, '.claude', 'agents'), { recursive: true });
    await symlink('../../.aws/credentials', path.join(home.root, '.claude', 'agents', 'aws.md'));
    await expect(home.source.read('.claude/agents/aws.md')).rejects.toThrow(
      'it is a symbolic link to .aws/credentials, which may hold secrets (it matches **/.aws/credentials)',
    );
  });

  it('says where front matter is not YAML without quoting it', async () => {
    const { workspace } = await workspaceWithGoodRole();
    const key = 'AKIAIOSFODNN7EXAMPLE';
    await workspace.write('.agent-team/agents/alias.md', roleFile(`description: *${key}`));
    await workspace.write('.agent-team/agents/tag.md', roleFile(`description: !${key} x\nname: [${key}`));
    const { diagnostics } = await loadRoles(workspace.source, knownToolNames);
    expect(diagnostics.map((diagnostic) => diagnostic.path)).toEqual(
      expect.arrayContaining(['.agent-team/agents/alias.md', '.agent-team/agents/tag.md']),
    );
    expect(JSON.stringify(diagnostics)).not.toContain(key);
    expect(diagnostics.find((diagnostic) => diagnostic.path.endsWith('alias.md'))?.message).toBe(
      'front matter is not valid YAML: Unresolved alias (the anchor must be set before the alias)',
    );
  });
});
