/**
 * Searching without `--max-filesize` while the workspace's large files are known (large-files.ts): the
 * results stay those of the JavaScript engine, which reads every size, when files grow over the limit or
 * shrink under it between searches, and the memory is learned, used, forgotten and aged as it says.
 */
import { chmod, readFile, rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { defaultWorkspacePolicy } from '../../src/engine/workspace/policy.js';
import { findRipgrepOnPath } from '../../src/engine/workspace/search/find-ripgrep.js';
import { exclusionGlobs, LargeFileMemory, maxRememberedLargeFiles, skippedForSize } from '../../src/engine/workspace/search/large-files.js';
import { type SearchOptions } from '../../src/engine/workspace/workspace.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { createTempTree, type TempTree, tempTrees } from './temp-tree.js';

const limit = 64;
const over = (text: string) => `${text}\n${'x'.repeat(limit)}\n`;

describe('skippedForSize', () => {
  it('reads the file out of the line ripgrep logs for a file over --max-filesize, and nothing out of others', () => {
    expect(
      skippedForSize(
        'DEBUG|ignore::walk|/usr/share/cargo/registry/ignore-0.4.18/src/walk.rs:1728: ignoring ./logs/big run.log: 11000000 bytes',
      ),
    ).toBe('./logs/big run.log');
    expect(skippedForSize('rg: DEBUG|ignore::walk|crates/ignore/src/walk.rs:1766: ignoring src/big.txt: 70 bytes')).toBe('src/big.txt');
    expect(
      skippedForSize('DEBUG|ignore::walk|walk.rs:1741: ignoring ./node_modules: Ignore(IgnoreMatch(Override(Glob(...))))'),
    ).toBeUndefined();
    expect(
      skippedForSize('DEBUG|rg::args|crates/core/args.rs:527: not reading config files because --no-config is present'),
    ).toBeUndefined();
  });
});

describe('exclusionGlobs', () => {
  it('anchors each file at the root and keeps glob characters literal', () => {
    expect(exclusionGlobs(['big.log', 'a/we[ird]{1}*?.txt'])).toEqual([
      '--glob',
      '!/big.log',
      '--glob',
      '!/a/we[[]ird[]][{]1[}][*][?].txt',
    ]);
  });

  it('gives up on a path a glob cannot name exactly', () => {
    expect(exclusionGlobs(['ok.txt', 'back\\slash.txt'])).toBeUndefined();
    expect(exclusionGlobs(['trailing space '])).toBeUndefined();
  });
});

describe('LargeFileMemory', () => {
  const trees = tempTrees();
  afterEach(() => trees.cleanupAll());

  it('knows nothing until it learns, then the files still over the limit, until it is forgotten or old', async () => {
    const tree = await trees.create({
      'big.txt': over('big'),
      'shrinks.txt': over('shrinks'),
      'becomes-dir.txt': over('dir'),
      'small.txt': 'small\n',
    });
    const clock = new ManualClock();
    const memory = new LargeFileMemory(clock, 1000);
    expect(await memory.exclusions(tree.root, limit)).toBeUndefined();
    memory.learn(['big.txt', 'shrinks.txt', 'becomes-dir.txt', 'vanished.txt'], limit);
    await tree.write('shrinks.txt', 'small now\n');
    await rm(tree.path('becomes-dir.txt'));
    await tree.write('becomes-dir.txt/inside.txt', 'a directory now\n');
    expect(await memory.exclusions(tree.root, limit)).toEqual(['big.txt']);
    expect(await memory.exclusions(tree.root, limit * 2)).toBeUndefined(); // learned for another limit
    await clock.advance(1000);
    expect(await memory.exclusions(tree.root, limit)).toEqual(['big.txt']);
    await clock.advance(1);
    expect(await memory.exclusions(tree.root, limit)).toBeUndefined();
    memory.learn(['big.txt'], limit);
    memory.forget();
    expect(await memory.exclusions(tree.root, limit)).toBeUndefined();
    memory.learn(
      Array.from({ length: maxRememberedLargeFiles + 1 }, (_, index) => `big${index}.txt`),
      limit,
    );
    expect(await memory.exclusions(tree.root, limit)).toBeUndefined();
  });
});

const ripgrepPath = await findRipgrepOnPath();

describe.skipIf(ripgrepPath === null || process.platform === 'win32')('searching with the large files known', () => {
  const policy = { ...defaultWorkspacePolicy, maxFileBytes: limit };
  let bin: TempTree;
  let tree: TempTree;
  beforeAll(async () => {
    // ripgrep itself, behind a script that logs each run's arguments (outside the searched tree).
    bin = await createTempTree();
    await bin.write('rg', `#!/bin/sh\nprintf '%s\\n' "$*" >> "${bin.path('runs.log')}"\nexec "${ripgrepPath}" "$@"\n`);
    await chmod(bin.path('rg'), 0o755);
  });
  afterAll(() => bin.cleanup());
  afterEach(async () => {
    await tree.cleanup();
    await rm(bin.path('runs.log'), { force: true });
  });

  const runs = async () =>
    (await readFile(bin.path('runs.log'), 'utf8').catch(() => ''))
      .trim()
      .split('\n')
      .filter((line) => line !== '');
  /** Searches with ripgrep and with the JavaScript engine (every size read): both must agree. */
  const searchBoth = async (workspace: NodeWorkspace, options: SearchOptions = {}) => {
    const expected = await new NodeWorkspace(tree.root, { ripgrepPath: null, policy }).search('SIZED', options);
    const actual = await workspace.search('SIZED', options);
    expect(actual).toEqual(expected);
    return actual.matches.map((match) => match.path);
  };

  it('learns them from a whole-workspace search, then excludes them by name, exactly as the size limit would', async () => {
    tree = await createTempTree({
      'big.txt': over('SIZED'),
      'a/we[ird] {1}.txt': over('SIZED'),
      'small.txt': 'SIZED small\n',
      'sub/small.txt': 'SIZED\n',
    });
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: bin.path('rg'), policy });
    expect(await searchBoth(workspace)).toEqual(['small.txt', 'sub/small.txt']);
    expect(await searchBoth(workspace, { path: 'sub' })).toEqual(['sub/small.txt']);
    expect(await searchBoth(workspace, { glob: '*.txt' })).toEqual(['small.txt', 'sub/small.txt']);
    const [learning, ...later] = await runs();
    expect(learning).toMatch(/--max-filesize 64 --debug/);
    for (const run of later) {
      expect(run).not.toMatch(/--max-filesize/);
      expect(run).toContain('--glob !/a/we[[]ird[]] [{]1[}].txt --glob !/big.txt '); // sorted: the arguments are the same each time
    }
  });

  it('drops the lines of a file that grew over the limit since, and checks every size again next time', async () => {
    tree = await createTempTree({ 'big.txt': over('SIZED'), 'grows.txt': 'SIZED small\n', 'later.txt': 'SIZED\n' });
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: bin.path('rg'), policy });
    expect(await searchBoth(workspace)).toEqual(['grows.txt', 'later.txt']);
    await tree.write('grows.txt', over('SIZED grown'));
    expect(await searchBoth(workspace)).toEqual(['later.txt']);
    expect(await searchBoth(workspace)).toEqual(['later.txt']);
    const log = await runs();
    expect(log.map((run) => run.includes('--max-filesize'))).toEqual([true, false, true]);
  });

  it('drops a UTF-16 file over the limit whose decoded text is under it (ripgrep counts the decoded bytes)', async () => {
    tree = await createTempTree({ 'wide.txt': 'SIZED\n', 'small.txt': 'SIZED\n' });
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: bin.path('rg'), policy });
    expect(await searchBoth(workspace)).toEqual(['small.txt', 'wide.txt']);
    // 82 bytes on disk (byte-order mark, 40 two-byte characters), 40 once decoded.
    const wide = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`SIZED ${'w'.repeat(33)}\n`, 'utf16le')]);
    expect(wide.length).toBe(82);
    await tree.write('wide.txt', wide);
    expect(await searchBoth(workspace)).toEqual(['small.txt']);
  });

  it('searches again the exact way when a capped result held lines of a file that grew', async () => {
    tree = await createTempTree({ 'big.txt': over('SIZED'), 'a-grows.txt': 'SIZED\nSIZED\n', 'b.txt': 'SIZED\nSIZED\n' });
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: bin.path('rg'), policy });
    expect(await searchBoth(workspace, { maxResults: 10 })).toEqual(['a-grows.txt', 'a-grows.txt', 'b.txt', 'b.txt']);
    await tree.write('a-grows.txt', over('SIZED\nSIZED'));
    expect(await searchBoth(workspace, { maxResults: 1 })).toEqual(['b.txt']);
    expect((await runs()).at(-1)).toMatch(/--max-filesize 64 --sort path/);
  });

  it('searches a remembered file again once it is back under the limit', async () => {
    tree = await createTempTree({ 'shrinks.txt': over('SIZED'), 'small.txt': 'SIZED\n' });
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: bin.path('rg'), policy });
    expect(await searchBoth(workspace)).toEqual(['small.txt']);
    await tree.write('shrinks.txt', 'SIZED again\n');
    expect(await searchBoth(workspace)).toEqual(['shrinks.txt', 'small.txt']);
    expect((await runs()).at(-1)).not.toMatch(/--max-filesize|--glob/);
  });
});
