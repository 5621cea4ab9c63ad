/**
 * `readBounded`, for the files the engine keeps itself: never through a link at the end, never waiting on
 * a FIFO, never more than the cap.
 */
import { execFileSync } from 'node:child_process';
import { symlink } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { readBounded } from '../../src/engine/workspace/bounded-read.js';
import { tempTrees } from './temp-tree.js';

const trees = tempTrees();
afterEach(() => trees.cleanupAll());

describe.skipIf(process.platform === 'win32')('readBounded', () => {
  it('reads at most the cap of a regular file, and refuses a link, a FIFO and a device', async () => {
    const tree = await trees.create({ 'file.txt': 'x'.repeat(100) });
    await symlink('file.txt', tree.path('link.txt'));
    execFileSync('mkfifo', [tree.path('pipe')]);
    expect(await readBounded(tree.path('file.txt'), 10)).toEqual({ text: 'x'.repeat(10), size: 100, cut: true });
    expect(await readBounded(tree.path('file.txt'), 100)).toEqual({ text: 'x'.repeat(100), size: 100, cut: false });
    await expect(readBounded(tree.path('link.txt'), 10)).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(readBounded(tree.path('pipe'), 10)).rejects.toThrow('it is not a regular file (a FIFO), so it is not read');
    await expect(readBounded('/dev/zero', 10)).rejects.toThrow('it is not a regular file (a device), so it is not read');
  });
});
