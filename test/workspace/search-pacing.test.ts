/**
 * The JavaScript searches give the thread back between slices of work and stop there on abort: a stop
 * (Ctrl-C, Stop, a tool's timeout) lands within one slice of one file, not after the whole search.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { StoppedError } from '../../src/engine/errors.js';
import { ChangeSetWorkspace } from '../../src/engine/file-tools/change-set-workspace.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { SearchPacer } from '../../src/engine/workspace/search/search-pacer.js';
import { compileSearchPattern, searchSliceLength, searchText } from '../../src/engine/workspace/search/search-pattern.js';
import { type SearchMatch } from '../../src/engine/workspace/workspace.js';
import { tempTrees } from './temp-tree.js';

const trees = tempTrees();
afterEach(() => trees.cleanupAll());

/** A text of `slices` slices, each starting with a line `HIT <n>`, padded with whole lines of dots. */
function slicedText(slices: number): string {
  const padding = `${'.'.repeat(1023)}\n`.repeat(Math.ceil(searchSliceLength / 1024));
  return Array.from({ length: slices }, (_, index) => `HIT ${index}\n${padding}`).join('');
}

describe('SearchPacer', () => {
  it('yields once its budget is spent and throws there when the signal was aborted meanwhile', async () => {
    const controller = new AbortController();
    const pacer = new SearchPacer(controller.signal, 10);
    await pacer.spend(9); // under budget: no yield, no check
    controller.abort({ kind: 'user' });
    await expect(pacer.spend(0)).resolves.toBeUndefined();
    await expect(pacer.spend(1)).rejects.toEqual(new StoppedError({ kind: 'user' }));
  });
});

describe('searchText', () => {
  it('numbers lines across slices exactly as one pass would', async () => {
    const text = slicedText(3);
    const found: SearchMatch[] = [];
    await searchText('big.txt', text, await compileSearchPattern('^HIT'), found, 100, new SearchPacer(undefined));
    const lines = text.split('\n');
    expect(found.map((match) => [match.line, match.text])).toEqual(
      lines.flatMap((line, index) => (line.startsWith('HIT') ? [[index + 1, line]] : [])),
    );
  });

  it('stops within the slice it was in when aborted mid-file', async () => {
    const controller = new AbortController();
    const found: SearchMatch[] = [];
    const searching = searchText(
      'big.txt',
      slicedText(4),
      await compileSearchPattern('HIT'),
      found,
      100,
      new SearchPacer(controller.signal, searchSliceLength),
    );
    // searchText has searched its first slice and is waiting for the event loop: stop it there.
    controller.abort({ kind: 'user' });
    await expect(searching).rejects.toBeInstanceOf(StoppedError);
    expect(found.map((match) => match.text)).toEqual(['HIT 0']);
  });
});

describe('an abort during a search', () => {
  it('stops the JavaScript engine between files, with the reason', async () => {
    const files = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`f${index}.txt`, slicedText(1)]));
    const tree = await trees.create(files);
    const controller = new AbortController();
    const searching = new NodeWorkspace(tree.root, { ripgrepPath: null }).search('HIT', { signal: controller.signal });
    setImmediate(() => controller.abort({ kind: 'shutdown' }));
    const error = await searching.catch((caught: unknown) => caught);
    expect(error).toEqual(new StoppedError({ kind: 'shutdown' }));
  });

  it('stops a Glob walk between directories, with the reason', async () => {
    const tree = await trees.create(Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`d${index}/f.txt`, ''])));
    const controller = new AbortController();
    const listing = new NodeWorkspace(tree.root, { ripgrepPath: null }).glob('**/*.txt', { signal: controller.signal });
    setImmediate(() => controller.abort({ kind: 'user' }));
    await expect(listing).rejects.toEqual(new StoppedError({ kind: 'user' }));
  });

  it('stops the search of pending proposals', async () => {
    const tree = await trees.create({});
    const changeSet = new ChangeSet({ taskId: 'task-1', role: 'refactorer' });
    const view = new ChangeSetWorkspace(new NodeWorkspace(tree.root, { ripgrepPath: null }), changeSet);
    for (let index = 0; index < 4; index++) await view.update(`p${index}.txt`, () => slicedText(2));
    const controller = new AbortController();
    const searching = view.search('HIT', { signal: controller.signal });
    setImmediate(() => controller.abort({ kind: 'user' }));
    await expect(searching).rejects.toEqual(new StoppedError({ kind: 'user' }));
  });
});
