import { symlink } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { IgnoreStack, rewriteRulesForRoot } from '../../src/engine/workspace/ignore-rules.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { resolvePolicy } from '../../src/engine/workspace/policy.js';
import { tempTrees } from './temp-tree.js';

const trees = tempTrees();
afterEach(() => trees.cleanupAll());

const files = {
  '.gitignore': 'dist/\n*.log\n',
  '.eslintrc.json': '{}',
  'dist/bundle.js': '',
  'debug.log': '',
  'src/index.ts': '',
  'src/util/strings.ts': '',
  'src/util/strings.test.ts': '',
  'src/.gitignore': 'fixtures/\n',
  'src/fixtures/data.ts': '',
  'packages/web/.gitignore': '!important.log\n',
  'packages/web/important.log': '',
  'packages/web/other.log': '',
  'node_modules/lib/index.ts': '',
  '.git/HEAD': 'ref: refs/heads/main\n',
};

describe('NodeWorkspace.glob', () => {
  it('lists files sorted, with root and nested .gitignore files, negations, excluded and hidden files', async () => {
    const tree = await trees.create(files);
    await symlink(tree.path('src/index.ts'), tree.path('src/link.ts'));
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null });
    expect((await workspace.glob('**/*')).paths).toEqual([
      '.eslintrc.json',
      '.gitignore',
      'packages/web/.gitignore',
      'packages/web/important.log',
      'src/.gitignore',
      'src/index.ts',
      'src/util/strings.test.ts',
      'src/util/strings.ts',
    ]);
  });

  it('matches patterns relative to the given directory, standard glob semantics', async () => {
    const tree = await trees.create(files);
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null });
    expect((await workspace.glob('**/*.ts')).paths).toEqual(['src/index.ts', 'src/util/strings.test.ts', 'src/util/strings.ts']);
    expect((await workspace.glob('*.ts', { path: 'src' })).paths).toEqual(['src/index.ts']);
    expect((await workspace.glob('src/**/*.test.ts')).paths).toEqual(['src/util/strings.test.ts']);
    expect((await workspace.glob(`${tree.root}/src/*.ts`)).paths).toEqual(['src/index.ts']);
    expect((await workspace.glob('src/index.ts')).paths).toEqual(['src/index.ts']);
    expect((await workspace.glob('nothing/**')).paths).toEqual([]);
  });

  it('caps the list and says so', async () => {
    const tree = await trees.create(files);
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null });
    const result = await workspace.glob('**/*.ts', { maxResults: 2 });
    expect(result).toEqual({ paths: ['src/index.ts', 'src/util/strings.test.ts'], truncated: true });
  });

  it('can ignore .gitignore and use other excludes when the policy says so', async () => {
    const tree = await trees.create(files);
    const policy = resolvePolicy({ respectGitignore: false, excludedDirectories: ['.git', 'src'] });
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null, policy });
    expect((await workspace.glob('**/*.{js,log,ts}')).paths).toEqual([
      'debug.log',
      'dist/bundle.js',
      'node_modules/lib/index.ts',
      'packages/web/important.log',
      'packages/web/other.log',
    ]);
  });
});

describe('IgnoreStack', () => {
  it('judges each entry by its own path, so a deeper .gitignore can re-include a directory', async () => {
    const stack = await (await IgnoreStack.empty.with('', 'build/\n*.tmp\n')).with('pkg', '!build/\n');
    expect(stack.isIgnored('build', true)).toBe(true);
    expect(stack.isIgnored('pkg/build', true)).toBe(false);
    expect(stack.isIgnored('pkg/build/out.js', false)).toBe(false);
    expect(stack.isIgnored('pkg/build/x.tmp', false)).toBe(true);
  });

  it('rewrites a nested .gitignore for reading from the root', () => {
    expect(rewriteRulesForRoot('a/b', '# comment\n*.log\n/top.txt\nsub/x\n!keep.log\ndir/\n\\#hash\n')).toEqual([
      '/a/b/**/*.log',
      '/a/b/top.txt',
      '/a/b/sub/x',
      '!/a/b/**/keep.log',
      '/a/b/**/dir/',
      '/a/b/**/#hash',
    ]);
    expect(rewriteRulesForRoot('', '*.log\n')).toEqual(['*.log']);
  });
});
