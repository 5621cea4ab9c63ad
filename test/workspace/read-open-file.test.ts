import { closeSync, openSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { StoppedError } from '../../src/engine/errors.js';
import { flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { resolvePolicy } from '../../src/engine/workspace/policy.js';
import { readInThreadBytes, readOpenFile } from '../../src/engine/workspace/read-open-file.js';
import { createWorkspaceTools } from '../../src/engine/file-tools/tools/create-workspace-tools.js';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { runTool } from './run-tool.js';
import { tempTrees } from './temp-tree.js';

const trees = tempTrees();
afterEach(() => trees.cleanupAll());

/** `readOpenFile` on `relative` opened for reading, told the file has `statedSize` bytes (a stat taken before it grew). */
async function readWithStatedSize(
  root: string,
  relative: string,
  statedSize: number,
  limit: number,
  signal?: AbortSignal,
): Promise<Buffer | null> {
  const fd = openSync(`${root}/${relative}`, 'r');
  try {
    return await readOpenFile(fd, statedSize, limit, signal);
  } finally {
    closeSync(fd);
  }
}

/** Whether `readOpenFile` settles with only microtasks run, no I/O callback: it read in this thread. */
async function settlesWithoutIo(root: string, relative: string, size: number): Promise<boolean> {
  const fd = openSync(`${root}/${relative}`, 'r');
  try {
    let settled = false;
    const reading = readOpenFile(fd, size, 10_000_000).then(() => (settled = true));
    await flushMicrotasks();
    const withoutIo = settled;
    await reading;
    return withoutIo;
  } finally {
    closeSync(fd);
  }
}

describe('reading an open file to its end', () => {
  const large = 'x'.repeat(readInThreadBytes + 4096) + '\nthe end\n';

  it('reads a small file in this thread and a large one through the pool, whole either way', async () => {
    const tree = await trees.create({ 'small.txt': 'Ship it on Friday.\n', 'large.txt': large, 'empty.txt': '' });
    expect((await readWithStatedSize(tree.root, 'small.txt', 19, 1000))?.toString()).toBe('Ship it on Friday.\n');
    expect((await readWithStatedSize(tree.root, 'large.txt', large.length, 10_000_000))?.toString()).toBe(large);
    expect((await readWithStatedSize(tree.root, 'empty.txt', 0, 1000))?.toString()).toBe('');
    // In this thread the read is done before any I/O callback can run; through the pool it is not.
    expect(await settlesWithoutIo(tree.root, 'small.txt', 19)).toBe(true);
    expect(await settlesWithoutIo(tree.root, 'large.txt', large.length)).toBe(false);
  });

  it('reads what a file grew to after its size was taken, in this thread and through the pool', async () => {
    const grown = 'line\n'.repeat(1000);
    const tree = await trees.create({ 'grown.txt': grown, 'large.txt': large });
    expect((await readWithStatedSize(tree.root, 'grown.txt', 5, 1_000_000))?.toString()).toBe(grown);
    expect((await readWithStatedSize(tree.root, 'large.txt', readInThreadBytes, 10_000_000))?.toString()).toBe(large);
  });

  it('gives up, having read one byte past the limit, when the file grew past it', async () => {
    const tree = await trees.create({ 'grown.txt': 'line\n'.repeat(1000) });
    expect(await readWithStatedSize(tree.root, 'grown.txt', 5, 100)).toBeNull();
    expect(await readWithStatedSize(tree.root, 'grown.txt', 5, 4999)).toBeNull();
    expect((await readWithStatedSize(tree.root, 'grown.txt', 5, 5000))?.length).toBe(5000);
  });

  it('stops when its signal has aborted', async () => {
    const tree = await trees.create({ 'notes.txt': 'Ship it on Friday.\n' });
    const controller = new AbortController();
    controller.abort();
    await expect(readWithStatedSize(tree.root, 'notes.txt', 19, 1000, controller.signal)).rejects.toBeInstanceOf(StoppedError);
  });

  it('serves the Read tool a file larger than the in-thread size, and refuses one over the limit', async () => {
    const tree = await trees.create({ 'large.txt': large, 'notes.txt': 'Ship it on Friday.\n' });
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null, policy: resolvePolicy({ maxFileBytes: readInThreadBytes * 2 }) });
    const tools = createWorkspaceTools({ workspace, changeSet: new ChangeSet({ taskId: 't1', role: 'researcher' }) });
    const read = await runTool(tools.readOnly, 'Read', { file_path: 'large.txt' });
    expect(read).toContain('the end');
    expect(await workspace.readText('large.txt')).toBe(large);
    await tree.write('huge.txt', 'y'.repeat(readInThreadBytes * 2 + 1));
    await expect(workspace.readText('huge.txt')).rejects.toMatchObject({ kind: 'too-large' });
  });
});
