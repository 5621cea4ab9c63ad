import { symlink } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoppedError, WorkspaceError } from '../../src/engine/errors.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { defaultWorkspacePolicy } from '../../src/engine/workspace/policy.js';
import { findRipgrepOnPath } from '../../src/engine/workspace/search/find-ripgrep.js';
import { type SearchOptions } from '../../src/engine/workspace/workspace.js';
import { createTempTree, type TempTree } from './temp-tree.js';

/** A tree that exercises every rule both engines must apply the same way. */
const fixture: Record<string, string | Uint8Array> = {
  '.gitignore': '*.log\nbuild/\n/anchored.txt\ngenerated/**\n',
  'README.md': '# Fixture\nTODO: write docs\n',
  'a.txt': 'alpha TODO\r\nbeta\r\nTODO$ end\n',
  'a/b.ts': 'export const todo = "TODO";\nconst other = 2;\n',
  'a/.gitignore': '!keep.log\nlocal.txt\n/only-here.txt\n',
  'a/keep.log': 'TODO kept by negation\n',
  'a/drop.log': 'TODO ignored log\n',
  'a/local.txt': 'TODO ignored by nested rule\n',
  'a/only-here.txt': 'TODO anchored in a\n',
  'a/deeper/only-here.txt': 'TODO not anchored here\n',
  'a-b/c.ts': 'TODO in a-b\n',
  'a.b/z.md': 'TODO in a.b\n',
  'anchored.txt': 'TODO anchored at root\n',
  'sub/anchored.txt': 'TODO not the root one\n',
  'build/out.js': 'TODO build output\n',
  'generated/x/y.ts': 'TODO generated\n',
  'node_modules/lib/index.js': 'TODO in node_modules\n',
  // Excluded names are matched whatever their case (ripgrep is given them as one case-insensitive glob).
  'Node_Modules/lib/index.js': 'TODO in node_modules, otherwise cased\n',
  'sub/.HG/x': 'TODO in hg, otherwise cased\n',
  '.hg/store': 'TODO in hg\n',
  '.github/workflows/ci.yml': 'run: echo TODO\n',
  'bin/data.bin': new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0x00, 0x01, 0x0a]),
  'no-newline.txt': 'last line TODO',
  'empty.txt': '',
  'unicode/日本.txt': 'TODO 日本語 ü\n',
  'src/deep/er/file.ts': 'function todo() {}\n// TODO: deep\n',
  'src/deep/er/file.test.ts': 'it("TODO test")\n',
  // Enough files over enough directories that ripgrep's threads finish them out of order.
  ...Object.fromEntries(
    Array.from({ length: 60 }, (_, index) => [
      `many/d${index % 6}/f${String(index).padStart(2, '0')}.txt`,
      `MANY ${index}\nnot this\nMANY again\n`,
    ]),
  ),
};

const queries: Array<[string, SearchOptions]> = [
  ['TODO', {}],
  ['todo', { caseInsensitive: true }],
  ['(?i)todo', {}],
  ['^TODO', {}],
  ['end$', {}],
  ['TODO\\$', {}],
  ['TODO', { path: 'a' }],
  ['TODO', { path: 'a/deeper' }],
  ['TODO', { path: 'sub' }],
  ['TODO', { path: 'a.txt' }],
  ['TODO', { glob: '*.ts' }],
  ['TODO', { glob: '*.{md,txt}' }],
  ['TODO', { glob: 'src/**/*.ts' }],
  ['TODO', { glob: '!*.test.ts' }],
  ['TODO', { glob: '*.log' }],
  ['TODO', { maxResults: 3 }],
  ['TODO', { maxResults: 1, path: 'src' }],
  // 14 lines match TODO: exactly the cap is not truncated, one fewer is.
  ['TODO', { maxResults: 14 }],
  ['TODO', { maxResults: 13 }],
  ['MANY', {}],
  ['MANY', { maxResults: 7 }],
  ['MANY', { maxResults: 119 }],
  ['MANY', { maxResults: 120 }],
  ['const \\w+ = \\d', {}],
  ['日本', {}],
  ['no match anywhere', {}],
  ['', { path: 'a/b.ts' }],
];

const ripgrepPath = await findRipgrepOnPath();
let tree: TempTree;
let javascript: NodeWorkspace;

beforeAll(async () => {
  tree = await createTempTree(fixture);
  await symlink(tree.path('a.txt'), tree.path('link.txt'));
  javascript = new NodeWorkspace(tree.root, { ripgrepPath: null });
});
afterAll(() => tree.cleanup());

describe('JavaScript search engine', () => {
  it('applies gitignore (root, nested, negated, anchored), excludes, hidden files and binary skipping', async () => {
    const result = await javascript.search('TODO');
    expect(result.matches.map((match) => `${match.path}:${match.line}`)).toEqual([
      '.github/workflows/ci.yml:1',
      'README.md:2',
      'a/b.ts:1',
      'a/deeper/only-here.txt:1',
      'a/keep.log:1',
      'a-b/c.ts:1',
      'a.b/z.md:1',
      'a.txt:1',
      'a.txt:3',
      'no-newline.txt:1',
      'src/deep/er/file.test.ts:1',
      'src/deep/er/file.ts:2',
      'sub/anchored.txt:1',
      'unicode/日本.txt:1',
    ]);
    expect(result.truncated).toBe(false);
    expect(result.matches.find((match) => match.path === 'a.txt')?.text).toBe('alpha TODO');
  });

  it('caps results and says so', async () => {
    const result = await javascript.search('TODO', { maxResults: 2 });
    expect(result.matches.map((match) => match.path)).toEqual(['.github/workflows/ci.yml', 'README.md']);
    expect(result.truncated).toBe(true);
  });
});

describe.skipIf(ripgrepPath === null)('ripgrep and the JavaScript fallback', () => {
  it.each(queries)('agree on %j %j', async (pattern, options) => {
    const ripgrep = new NodeWorkspace(tree.root, { ripgrepPath: ripgrepPath! });
    expect(await ripgrep.searchEngine()).toBe('ripgrep');
    const expected = await javascript.search(pattern, options);
    const actual = await ripgrep.search(pattern, options);
    expect(actual).toEqual(expected);
  });

  it('both refuse an invalid regex with a clear error', async () => {
    const ripgrep = new NodeWorkspace(tree.root, { ripgrepPath: ripgrepPath! });
    for (const workspace of [ripgrep, javascript]) {
      const error = await workspace.search('foo(bar').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WorkspaceError);
      expect((error as WorkspaceError).kind).toBe('invalid');
      expect((error as WorkspaceError).message).toMatch(/^Invalid regular expression "foo\(bar": .+Escape special characters/);
    }
  });
});

describe.skipIf(ripgrepPath === null)('files over the size limit', () => {
  // 64 bytes: big.txt (over) is skipped, small.txt (under) and exact.txt (at the limit) are searched.
  const policy = { ...defaultWorkspacePolicy, maxFileBytes: 64 };
  let sized: TempTree;
  beforeAll(async () => {
    sized = await createTempTree({
      'big.txt': `SIZED ${'x'.repeat(100)}\n`,
      'small.txt': 'SIZED small\n',
      'exact.txt': `SIZED ${'y'.repeat(57)}\n`,
      'sub/big.txt': `SIZED\n${'z'.repeat(100)}\nSIZED\n`,
    });
  });
  afterAll(() => sized.cleanup());

  it.each([{}, { maxResults: 1 }, { maxResults: 2 }, { path: 'big.txt' }])('are skipped by both engines alike (%j)', async (options) => {
    const expected = await new NodeWorkspace(sized.root, { ripgrepPath: null, policy }).search('SIZED', options);
    const actual = await new NodeWorkspace(sized.root, { ripgrepPath: ripgrepPath!, policy }).search('SIZED', options);
    expect(actual).toEqual(expected);
  });

  it('leave only the files within the limit', async () => {
    const result = await new NodeWorkspace(sized.root, { ripgrepPath: ripgrepPath!, policy }).search('SIZED');
    expect(result.matches.map((match) => match.path)).toEqual(['exact.txt', 'small.txt']);
  });
});

describe('an aborted signal', () => {
  it('stops both engines with a StoppedError carrying the reason', async () => {
    const controller = new AbortController();
    controller.abort({ kind: 'shutdown' });
    const engines = ripgrepPath === null ? [javascript] : [javascript, new NodeWorkspace(tree.root, { ripgrepPath })];
    for (const workspace of engines) {
      const error = await workspace.search('TODO', { signal: controller.signal }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StoppedError);
      expect((error as StoppedError).reason).toEqual({ kind: 'shutdown' });
    }
  });
});

describe('a ripgrep that cannot start', () => {
  it('falls back to the JavaScript engine with the same results', async () => {
    const broken = new NodeWorkspace(tree.root, { ripgrepPath: tree.path('no-such-rg') });
    expect(await broken.search('TODO', { path: 'a' })).toEqual(await javascript.search('TODO', { path: 'a' }));
    expect(await broken.searchEngine()).toBe('javascript');
  });
});
