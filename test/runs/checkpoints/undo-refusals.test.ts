/**
 * undoAccepted against a real folder: all or nothing, and nothing written out of the workspace, through
 * a link, into a FIFO, or from content it does not have, whatever the restore points say.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, symlink } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { RestorePoint } from '../../../src/engine/runs/checkpoints/restore-point.js';
import { digestOf, storeContent } from '../../../src/engine/runs/checkpoints/stored-content.js';
import { undoAccepted } from '../../../src/engine/runs/checkpoints/undo-accepted.js';
import { WorkspaceBytes } from '../../../src/engine/runs/checkpoints/workspace-bytes.js';
import { tempTrees } from '../../workspace/temp-tree.js';

const trees = tempTrees();
afterEach(() => trees.cleanupAll());

const recorded: RestorePoint[] = [];
const sink = { recordRestorePoint: (_runId: string, point: RestorePoint) => Promise.resolve(recorded.push(point) > 0) };
const accept = (...files: Array<[string, Buffer | null, string | null]>): RestorePoint[] => [
  {
    pointId: 'p1',
    kind: 'accept',
    at: 1,
    taskIds: ['t1'],
    files: files.map(([path, before, after]) => ({
      path,
      before: before === null ? null : storeContent(before),
      after: after === null ? null : digestOf(Buffer.from(after)),
    })),
  },
];

describe('undoAccepted', () => {
  it('writes a binary content back byte for byte', async () => {
    const tree = await trees.create({ 'image.bin': 'accepted text\n' });
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xe9]);
    const outcome = await undoAccepted(
      { runId: 'r', points: accept(['image.bin', binary, 'accepted text\n']) },
      new WorkspaceBytes(tree.root),
      sink,
    );
    expect(outcome.status).toBe('done');
    expect((await readFile(tree.path('image.bin'))).equals(binary)).toBe(true);
  });

  it('refuses everything when one file changed since, naming it, and writes nothing; force writes it', async () => {
    const tree = await trees.create({ 'a.txt': 'accepted a\n', 'b.txt': 'edited by hand\n' });
    const points = accept(['a.txt', Buffer.from('old a\n'), 'accepted a\n'], ['b.txt', Buffer.from('old b\n'), 'accepted b\n']);
    const refused = await undoAccepted({ runId: 'r', points }, new WorkspaceBytes(tree.root), sink);
    expect(refused).toEqual({
      status: 'refused',
      direction: 'undo',
      refused: [{ path: 'b.txt', reason: 'it changed on disk since the change was accepted', forceable: true }],
    });
    expect(await tree.read('a.txt')).toBe('accepted a\n');
    const forced = await undoAccepted({ runId: 'r', points, force: true }, new WorkspaceBytes(tree.root), sink);
    expect(forced).toMatchObject({
      status: 'done',
      files: [
        { path: 'a.txt', forced: false },
        { path: 'b.txt', forced: true },
      ],
    });
    expect([await tree.read('a.txt'), await tree.read('b.txt')]).toEqual(['old a\n', 'old b\n']);
    // The hand edit is kept in the undo's own point.
    expect(recorded.at(-1)!.files[1]!.before).toMatchObject({ data: 'edited by hand\n' });
  });

  it('refuses, even forced, a path out of the workspace, a link leading out, a FIFO, and content it did not keep', async () => {
    const outside = await trees.create({ 'secret.txt': 'accepted\n' });
    const tree = await trees.create({ 'big.txt': 'accepted\n', 'ok.txt': 'accepted\n' });
    await symlink(outside.path('secret.txt'), tree.path('link.txt'));
    execFileSync('mkfifo', [tree.path('pipe')]);
    const points = accept(
      ['../escape.txt', Buffer.from('x'), null],
      ['link.txt', Buffer.from('planted\n'), 'accepted\n'],
      ['pipe', Buffer.from('x'), 'accepted\n'],
      ['ok.txt', Buffer.from('old\n'), 'accepted\n'],
    );
    points[0]!.files.push({ path: 'big.txt', before: digestOf(Buffer.alloc(20)), after: digestOf(Buffer.from('accepted\n')) });
    const refused = await undoAccepted({ runId: 'r', points }, new WorkspaceBytes(tree.root), sink);
    expect(refused.status).toBe('refused');
    const reasons = refused.status === 'refused' ? Object.fromEntries(refused.refused.map((file) => [file.path, file])) : {};
    expect(Object.keys(reasons).sort()).toEqual(['../escape.txt', 'big.txt', 'link.txt', 'pipe']);
    expect(reasons['link.txt']).toMatchObject({ forceable: false, reason: expect.stringContaining('outside the workspace') });
    expect(reasons['pipe']).toMatchObject({ forceable: false, reason: 'pipe is not a regular file.' });
    expect(reasons['big.txt']).toMatchObject({ forceable: false, reason: expect.stringContaining('too large to keep') });
    expect(await tree.read('ok.txt')).toBe('accepted\n');
    const forced = await undoAccepted({ runId: 'r', points, force: true }, new WorkspaceBytes(tree.root), sink);
    expect(forced).toMatchObject({ status: 'done', files: [{ path: 'ok.txt' }] });
    expect(await outside.read('secret.txt')).toBe('accepted\n');
    expect(existsSync(`${tree.root}/../escape.txt`)).toBe(false);
  });
});
