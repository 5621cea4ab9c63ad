/**
 * Restore points recorded by a real accept (applyChangeSet with an AcceptCheckpoint) into a signed run log,
 * read back by a later process, and put back by undoAccepted byte for byte; an undo recorded in turn.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyChangeSet } from '../../../src/engine/changes/apply.js';
import { ChangeSet } from '../../../src/engine/changes/change-set.js';
import { AcceptCheckpoint } from '../../../src/engine/runs/checkpoints/accept-checkpoint.js';
import { digestOf } from '../../../src/engine/runs/checkpoints/stored-content.js';
import { undoAccepted } from '../../../src/engine/runs/checkpoints/undo-accepted.js';
import { WorkspaceBytes } from '../../../src/engine/runs/checkpoints/workspace-bytes.js';
import { createWorkspaceTools } from '../../../src/engine/file-tools/tools/create-workspace-tools.js';
import { runFolderSigning } from '../../../src/engine/runs/run-log-key.js';
import { RunLog } from '../../../src/engine/runs/run-log.js';
import { NodeWorkspace } from '../../../src/engine/workspace/node-workspace.js';
import { runTool } from '../../workspace/run-tool.js';
import { tempTrees } from '../../workspace/temp-tree.js';

const trees = tempTrees();
const folders: string[] = [];
afterEach(async () => {
  await trees.cleanupAll();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function signedRunLog(): Promise<() => Promise<RunLog>> {
  const home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
  const directory = await mkdtemp(path.join(tmpdir(), 'agent-team-runs-'));
  folders.push(home, directory);
  const signing = await runFolderSigning(home, directory);
  return () => RunLog.open({ directory, signing, onWarning: (message) => expect.fail(message) });
}

describe('restore points of an accept', () => {
  it('records each file’s exact content before and the digest after, signed; undo puts it back and records itself', async () => {
    const original = 'one\r\ntwo\r\nthree\r\n';
    const tree = await trees.create({ 'f.txt': original });
    const workspace = new NodeWorkspace(tree.root, { ripgrepPath: null });
    const changeSet = new ChangeSet({ taskId: 't1', role: 'coder' });
    const { readOnly, edit } = createWorkspaceTools({ workspace, changeSet });
    await runTool([...readOnly, ...edit], 'Edit', { file_path: 'f.txt', old_string: 'two', new_string: 'TWO' });
    await runTool([...readOnly, ...edit], 'Write', { file_path: 'sub/new.txt', content: 'created\n' });
    changeSet.accept();
    const checkpoint = new AcceptCheckpoint(new WorkspaceBytes(tree.root), () => 1000);
    const report = await applyChangeSet(changeSet, workspace, { checkpoint });
    expect(report.files.map((file) => file.outcome)).toEqual(['applied', 'applied']);
    const open = await signedRunLog();
    const writer = await open();
    expect(await checkpoint.record(writer, 'r1', ['t1'])).toBe(true);
    await writer.close();

    const reader = await open();
    const contents = await reader.read('r1');
    expect(contents?.signature.status).toBe('signed');
    const [point] = contents!.restorePoints;
    expect(point).toMatchObject({ kind: 'accept', at: 1000, taskIds: ['t1'] });
    expect(point!.files).toEqual([
      {
        path: 'f.txt',
        before: { ...digestOf(Buffer.from(original)), encoding: 'utf8', data: original },
        after: digestOf(Buffer.from('one\r\nTWO\r\nthree\r\n')),
      },
      { path: 'sub/new.txt', before: null, after: digestOf(Buffer.from('created\n')) },
    ]);

    const outcome = await undoAccepted(
      { runId: 'r1', points: contents!.restorePoints, now: () => 2000 },
      new WorkspaceBytes(tree.root),
      reader,
    );
    expect(outcome).toMatchObject({
      status: 'done',
      direction: 'undo',
      files: [
        { path: 'f.txt', action: 'restored' },
        { path: 'sub/new.txt', action: 'deleted' },
      ],
    });
    expect(await readFile(tree.path('f.txt'), 'utf8')).toBe(original);
    await expect(readFile(tree.path('sub/new.txt'))).rejects.toThrow();
    const after = await reader.read('r1');
    expect(after!.restorePoints.map((recorded) => recorded.kind)).toEqual(['accept', 'undo']);
    expect(after!.restorePoints[1]!.files[1]).toEqual({
      path: 'sub/new.txt',
      before: { ...digestOf(Buffer.from('created\n')), encoding: 'utf8', data: 'created\n' },
      after: null,
    });
    await reader.close();
  });
});
