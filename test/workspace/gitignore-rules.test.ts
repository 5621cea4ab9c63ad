/**
 * `.gitignore` rules as git and ripgrep read them, compiled to RE2 (gitignore-rules.ts): the walk keeps
 * exactly the files ripgrep keeps, and a rule written to make a backtracking engine run for hours
 * against a deep path is matched at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeByRules, parseGitignore } from '../../src/engine/workspace/gitignore-rules.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { loadRe2 } from '../../src/engine/workspace/regex-engine.js';
import { findRipgrepOnPath } from '../../src/engine/workspace/search/find-ripgrep.js';
import { createTempTree, type TempTree } from './temp-tree.js';

const gitignore = [
  '# a comment',
  '*.log',
  '!keep.log',
  '/root-only.txt',
  'docs/**/draft.md',
  '**/tmp/',
  '[Bb]ackup*',
  '\\#literal',
  '\\!bang',
  'sp ace.txt   ',
  'a?c.txt',
  '*.[oa]',
  'build/**',
  'deep/**/x',
  'CASE.TXT',
  '[!a-m]*.bak',
  'ends-with-backslash\\',
  '',
].join('\n');

const kept = [
  '.gitignore',
  'a.bak',
  'abbc.txt',
  'case.txt',
  'deep/y',
  'ends-with-backslash',
  'keep.log',
  'lib.so',
  'other/docs/draft.md',
  'sub/keep.log',
  'sub/root-only.txt',
  'sub/tmp.txt',
  'xbackup.txt',
];
const ignored = [
  'app.log',
  'sub/other.log',
  'root-only.txt',
  'docs/draft.md',
  'docs/x/y/draft.md',
  'tmp/f.txt',
  'sub/tmp/f.txt',
  'Backup1.txt',
  'backup2.txt',
  '#literal',
  '!bang',
  'sp ace.txt',
  'abc.txt',
  'lib.o',
  'lib.a',
  'build/out/x.js',
  'deep/x',
  'deep/1/2/x',
  'CASE.TXT',
  'z.bak',
];

const ripgrepPath = await findRipgrepOnPath();
let tree: TempTree;
beforeAll(async () => {
  tree = await createTempTree({
    '.gitignore': gitignore,
    ...Object.fromEntries([...kept.slice(1), ...ignored].map((path) => [path, 'x\n'])),
  });
});
afterAll(() => tree.cleanup());

describe('gitignore rules', () => {
  it('keep and drop the files git would, case-sensitive', async () => {
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null });
    expect((await workspace.glob('**')).paths).toEqual(kept);
  });

  it.skipIf(ripgrepPath === null)("agree with ripgrep's own reading of them", async () => {
    const javascript = await new NodeWorkspace(tree.root, { ripgrepPath: null }).search('x');
    const ripgrep = await new NodeWorkspace(tree.root, { ripgrepPath: ripgrepPath! }).search('x');
    expect(javascript).toEqual(ripgrep);
    const searched = javascript.matches.map((match) => match.path).filter((path) => path !== '.gitignore');
    expect(searched).toEqual(kept.filter((path) => path !== '.gitignore'));
  });

  it('match a rule made to backtrack against a deep path at once', async () => {
    const rules = parseGitignore('**/a/**/a/**/a/**/a/**/a/**/a/**/b\n', await loadRe2());
    const deep = Array(200).fill('a').join('/');
    expect(judgeByRules(rules, `${deep}/c`, false)).toBeUndefined();
    expect(judgeByRules(rules, `${deep}/b`, false)).toBe('ignored');
  });

  it('skip lines git skips, and rules that cannot match', async () => {
    const rules = parseGitignore('\n# comment\n!\ntrailing\\\n[z-a]\n   \n', await loadRe2());
    expect(rules).toEqual([]);
  });
});
