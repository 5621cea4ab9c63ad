import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkspaceError } from '../../src/engine/errors.js';
import { HostWorkspace } from '../../src/extension/host-workspace.js';
import { Uri } from './support/fake-basics.js';
import { fake } from './support/fake-vscode.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

let base: string;
let root: string;
let workspace: HostWorkspace;

beforeEach(() => {
  fake.reset();
  base = mkdtempSync(nodePath.join(tmpdir(), 'agent-team-host-workspace-'));
  root = nodePath.join(base, 'root');
  mkdirSync(nodePath.join(root, 'src'), { recursive: true });
  writeFileSync(nodePath.join(root, 'src/a.ts'), 'const saved = 1;\n');
  writeFileSync(nodePath.join(root, 'src/b.ts'), 'const other = 1;\n');
  workspace = new HostWorkspace(root, { ripgrepPath: null });
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

function typeInto(path: string, text: string) {
  const document = fake.state.documents.open(Uri.file(nodePath.join(root, path)));
  document.setText(text);
  return document;
}

describe('the VS Code workspace', () => {
  it('reads an editor\u2019s unsaved text instead of the disk', async () => {
    expect(await workspace.readText('src/a.ts')).toBe('const saved = 1;\n');
    typeInto('src/a.ts', 'const unsaved = 2;\n');
    expect(await workspace.readText('src/a.ts')).toBe('const unsaved = 2;\n');
    expect(await workspace.readText(nodePath.join(root, 'src/a.ts'))).toBe('const unsaved = 2;\n');
    expect((await workspace.stat('src/a.ts'))?.size).toBe('const unsaved = 2;\n'.length);
  });

  it('searches unsaved text in place of the file on disk', async () => {
    typeInto('src/a.ts', 'const unsaved = 2;\nconst saved = 3;\n');
    const result = await workspace.search('const \\w+ =');
    expect(result.matches).toEqual([
      { path: 'src/a.ts', line: 1, text: 'const unsaved = 2;' },
      { path: 'src/a.ts', line: 2, text: 'const saved = 3;' },
      { path: 'src/b.ts', line: 1, text: 'const other = 1;' },
    ]);
    expect((await workspace.search('unsaved', { glob: '*.md' })).matches).toEqual([]);
  });

  it('writes through one WorkspaceEdit of the whole document and saves it', async () => {
    await workspace.writeText('src/a.ts', 'const saved = 42;\n');
    expect(readFileSync(nodePath.join(root, 'src/a.ts'), 'utf8')).toBe('const saved = 42;\n');
    expect(fake.state.documents.appliedEdits).toHaveLength(1);
    expect(fake.state.documents.documents[0]).toMatchObject({ isDirty: false, saves: 1 });
  });

  it('leaves a document with the user\u2019s unsaved changes unsaved after writing into it', async () => {
    const document = typeInto('src/a.ts', 'const unsaved = 2;\n');
    await workspace.writeText('src/a.ts', 'const merged = 3;\n');
    expect(document.getText()).toBe('const merged = 3;\n');
    expect(document.isDirty).toBe(true);
    expect(readFileSync(nodePath.join(root, 'src/a.ts'), 'utf8')).toBe('const saved = 1;\n');
  });

  it('creates new files, parents included', async () => {
    await workspace.writeText('lib/deep/new.ts', 'export {};\n');
    expect(readFileSync(nodePath.join(root, 'lib/deep/new.ts'), 'utf8')).toBe('export {};\n');
  });

  it('refuses paths outside the folder, through symlinks, and into .git', async () => {
    writeFileSync(nodePath.join(base, 'secret.txt'), 'secret');
    symlinkSync(nodePath.join(base, 'secret.txt'), nodePath.join(root, 'link.txt'));
    await expect(workspace.readText('../secret.txt')).rejects.toMatchObject({ kind: 'outside-workspace' });
    await expect(workspace.readText('link.txt')).rejects.toMatchObject({ kind: 'outside-workspace' });
    await expect(workspace.writeText('link.txt', 'x')).rejects.toBeInstanceOf(WorkspaceError);
    await expect(workspace.writeText('.git/config', 'x')).rejects.toMatchObject({ kind: 'read-only' });
    expect(readFileSync(nodePath.join(base, 'secret.txt'), 'utf8')).toBe('secret');
    expect(fake.state.documents.appliedEdits).toEqual([]);
  });
});
