import picomatch from 'picomatch/posix';
import { describe, expect, it } from 'vitest';
import { WorkspaceError } from '../../src/engine/errors.js';
import { maxBraceExpansions } from '../../src/engine/workspace/glob/brace-expansion.js';
import { compileGlob, globLiteralPrefix, maxGlobPatternLength } from '../../src/engine/workspace/glob/glob-matcher.js';

const paths = [
  'a',
  'a.ts',
  '.a',
  '.ts',
  'ab',
  'b',
  'xb',
  'a/b',
  'a/x',
  'a/.x',
  'a/xb',
  'a/x/b',
  'a/x/y/b',
  'a/x.ts',
  'a/.b/x.ts',
  'a.b/z.md',
  'aXb/z.md',
  'b/c/x.ts',
  'b/x.ts',
  'src/index.ts',
  'src/util/strings.test.ts',
  'src/util/strings.ts',
  '1.txt',
  '2.txt',
  '4.txt',
  '07.txt',
  'c.txt',
  'a.txt',
  'd.txt',
  '*.txt',
  'ab.txt',
  '[a-',
  'a{b',
  'a+b',
  'a$b',
  '{a}',
  'x/a',
  'x/y/a',
  ']',
  'aab',
  'xaxaxb',
  'aa',
  'Readme.MD',
  'unicode/日本.txt',
  'dir with space/file name.txt',
];

/** picomatch's own behaviour (dot: true) is the reference for everything the matcher supports. */
const patterns = [
  '**',
  '*',
  '**/*',
  '**/*.ts',
  '*.ts',
  'a/**',
  'a/**/b',
  'a**b',
  '**b',
  'a/**b',
  '**/**/a',
  'a/*/b',
  '*.{ts,tsx}',
  '{a,b/c}/*.ts',
  '{,a}b',
  'x{a,{b,c}}',
  '{a}',
  'a{b',
  '{1..3}.txt',
  '{a..c}.txt',
  '[abc].txt',
  '[^abc].txt',
  '[a-c].txt',
  '[[:alpha:]].txt',
  '[[:digit:]]*.txt',
  '[]]',
  '[a\\]]',
  '[a-',
  '\\*.txt',
  '?.txt',
  '??.txt',
  '@(a|b).txt',
  '+(a|b).txt',
  '?(a).txt',
  '*(a|b).txt',
  '!*.ts',
  '!**/*.ts',
  'a.b/*.md',
  'src/index.ts',
  'src/**/*.test.ts',
  'src/**',
  'a+b',
  'a$b',
  '*a*a*b',
  '*.MD',
  '*.md',
  '**/日本.*',
  'dir with space/*',
  'x/**/a',
];

describe('compileGlob', () => {
  it.each(patterns)('agrees with picomatch on %j', async (pattern) => {
    const reference = picomatch(pattern, { dot: true });
    const matcher = await compileGlob(pattern);
    expect(paths.filter((path) => matcher(path))).toEqual(paths.filter((path) => reference(path)));
  });

  it('matches catastrophic patterns against long names (picomatch would backtrack for hours)', async () => {
    const matcher = await compileGlob('*a*a*a*a*a*a*a*a*a*a*a*a*b');
    const long = 'a'.repeat(5000);
    expect(matcher(long)).toBe(false);
    expect(matcher(`${long}b`)).toBe(true);
    expect(matcher(`x/${long}b`)).toBe(false);
    const deep = await compileGlob('**/a/**/a/**/a/**/a/**/a/**/a/**/b');
    expect(deep(Array(300).fill('a').join('/'))).toBe(false);
    expect(deep(`${Array(300).fill('a').join('/')}/b`)).toBe(true);
  });

  it('negates a class with ! as with ^ (standard glob meaning; picomatch/posix gets [!abc] wrong)', async () => {
    const matcher = await compileGlob('[!abc].txt');
    expect(paths.filter((path) => matcher(path))).toEqual(['1.txt', '2.txt', '4.txt', 'd.txt', '*.txt']);
  });

  it('can ignore case', async () => {
    const matcher = await compileGlob('*.md', { caseInsensitive: true });
    expect(matcher('Readme.MD')).toBe(true);
  });

  it('refuses a pattern over the length limit, naming it', async () => {
    const error = await compileGlob('*'.repeat(maxGlobPatternLength + 1)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WorkspaceError);
    expect((error as WorkspaceError).message).toBe(
      `The glob is ${maxGlobPatternLength + 1} characters long, over the limit of ${maxGlobPatternLength}. Use a shorter pattern, or several calls.`,
    );
  });

  it('refuses braces that expand too far, ranges included, without expanding them first', async () => {
    for (const pattern of ['{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}', '{1..1000000000}.txt', '{0..300}']) {
      const error = await compileGlob(pattern).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WorkspaceError);
      expect((error as WorkspaceError).message).toBe(
        `The glob ${JSON.stringify(pattern)} expands to more than ${maxBraceExpansions} patterns through its {…} braces. Use fewer alternatives or a wildcard such as *.`,
      );
    }
    expect((await compileGlob('{1..256}'))('256')).toBe(true);
  });

  it('refuses a negated group and an invalid class with the construct named', async () => {
    await expect(compileGlob('!(a).txt')).rejects.toThrow('The glob "!(a).txt" uses !(…) (a negated group), which is not supported.');
    await expect(compileGlob('[z-a].txt')).rejects.toThrow(/^The glob "\[z-a\]\.txt" is not valid: invalid character class range/);
  });
});

describe('globLiteralPrefix', () => {
  it.each([
    ['src/**/*.ts', 'src'],
    ['src/app/*.ts', 'src/app'],
    ['src/index.ts', 'src/index.ts'],
    ['*.ts', ''],
    ['{src,test}/*.ts', ''],
    ['!src/*.ts', ''],
    ['a\\*b/c', ''],
  ])('%j starts the walk at %j', (pattern, prefix) => {
    expect(globLiteralPrefix(pattern)).toBe(prefix);
  });
});
