import { mkdir, symlink } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { createWorkspaceTools } from '../../src/engine/file-tools/tools/create-workspace-tools.js';
import type { TempTree, tempTrees } from './temp-tree.js';

export const envContent = 'API_KEY=sk-live-7f3a9c\n';
export const gitConfigContent = '[remote "origin"]\n\turl = https://alice:ghp_token123@github.com/acme/app.git\n';

/**
 * A workspace whose links all stay inside it, so plain confinement lets them through, as a cloned
 * repository can carry them: `notes.txt -> .env`, `hooks -> .git/hooks`, `vsc -> .vscode`, `cfg ->
 * .git/config`, `g -> .git`, `keys -> .ssh`, `aws -> .aws`, `alias.ts -> src/a.ts`, `husky-link -> .husky`, and
 * dangling ones: `dangling.txt -> missing.txt`, `local-env -> .env.local`, `gone -> missing-dir`.
 */
export async function createLinkedWorkspace(trees: ReturnType<typeof tempTrees>, ripgrepPath: string | null = null) {
  const tree = await trees.create({
    '.env': envContent,
    '.git/config': gitConfigContent,
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.git/hooks/pre-commit.sample': '#!/bin/sh\necho sample hook sk-live-sample\n',
    '.vscode/settings.json': '{ "editor.tabSize": 2 }\n',
    '.ssh/config': 'Host prod\n  IdentityFile ~/.ssh/sk-live-key\n',
    '.aws/credentials': '[default]\naws_secret_access_key = sk-live-aws\n',
    '.aws/config': '[default]\nregion = eu-west-1\n',
    'src/a.ts': 'export const a = 1;\n',
    'README.md': '# App\n',
  });
  await link(tree, '.env', 'notes.txt');
  await link(tree, '.git/hooks', 'hooks');
  await link(tree, '.vscode', 'vsc');
  await link(tree, '.git/config', 'cfg');
  await link(tree, '.git', 'g');
  await link(tree, '.ssh', 'keys');
  await link(tree, '.aws', 'aws');
  await link(tree, 'src/a.ts', 'alias.ts');
  await mkdir(tree.path('.husky'));
  await link(tree, '.husky', 'husky-link');
  await link(tree, 'missing.txt', 'dangling.txt');
  await link(tree, '.env.local', 'local-env');
  await link(tree, 'missing-dir', 'gone');
  const workspace = new NodeWorkspace(tree.root, { ripgrepPath });
  const changeSet = new ChangeSet({ taskId: 't1', role: 'refactorer' });
  const tools = createWorkspaceTools({ workspace, changeSet });
  return { tree, workspace, changeSet, view: tools.view, tools: [...tools.readOnly, ...tools.edit] };
}

/** A relative link at `at` pointing to `target` (both workspace-relative), as `ln -s` in a checkout makes. */
export async function link(tree: TempTree, target: string, at: string): Promise<void> {
  const from = nodePath.dirname(tree.path(at));
  await mkdir(from, { recursive: true });
  await symlink(nodePath.relative(from, tree.path(target)), tree.path(at));
}
