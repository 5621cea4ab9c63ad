/**
 * The index as an open reads it (B14): the last line per run wins, tombstones remove, damaged and torn
 * lines are skipped with a warning, and the runs come oldest first by `updatedAt` whether the file lists
 * them in that order (taken as read) or not (sorted): a task id two runs claim belongs to the later one.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunIndex, type RunSummary } from '../../src/engine/runs/run-index.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'agent-team-run-index-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function run(runId: string, updatedAt: number, taskIds: string[] = [runId], bytes = 100): RunSummary {
  return {
    runId,
    description: `run ${runId}`,
    role: 'coordinator',
    status: 'completed',
    createdAt: 1,
    updatedAt,
    bytes,
    taskIds,
    openTasks: 0,
  };
}

/** Reads an index of these lines; `torn`: the last one without its newline, as a crash leaves it. */
async function readIndex(lines: string[], torn = false): Promise<{ index: RunIndex; warnings: string[] }> {
  await writeFile(path.join(directory, 'index.jsonl'), `${lines.join('\n')}${torn ? '' : '\n'}`);
  const warnings: string[] = [];
  return { index: await RunIndex.read(directory, (message) => warnings.push(message)), warnings };
}

/** What every query of the index sees. */
function view(index: RunIndex, taskIds: string[]) {
  return {
    runs: [...index.oldestFirst()].map((summary) => JSON.stringify(summary)),
    size: index.size,
    totalBytes: index.totalBytes,
    runOf: taskIds.map((taskId) => index.runOf(taskId)),
  };
}

describe('RunIndex.read', () => {
  it('gives the same index for a file in time order and for the same runs written out of order', async () => {
    const runs = Array.from({ length: 600 }, (_, number) => run(`r${number}`, 1000 + number, [`r${number}`, `c${number}`], number));
    const taskIds = ['r0', 'c0', 'r599', 'c599', 'r300', 'missing'];
    const inOrder = await readIndex(runs.map((summary) => JSON.stringify(summary)));
    const shuffled = [...runs].reverse();
    await rm(path.join(directory, 'index.jsonl'));
    const outOfOrder = await readIndex(shuffled.map((summary) => JSON.stringify(summary)));
    expect(view(outOfOrder.index, taskIds)).toEqual(view(inOrder.index, taskIds));
    expect(view(inOrder.index, taskIds)).toMatchObject({
      size: 600,
      totalBytes: (599 * 600) / 2,
      runOf: ['r0', 'r0', 'r599', 'r599', 'r300', undefined],
    });
  });

  it('keeps the last line per run, drops tombstoned runs, skips damaged and torn lines, and gives a shared task id to the later run', async () => {
    for (const clockSkewed of [false, true]) {
      // `b` claims task `x` later than `a` does; with a skewed clock its line comes first in the file.
      const a = run('a', clockSkewed ? 50 : 10, ['a', 'x']);
      const b = run('b', clockSkewed ? 60 : 20, ['b', 'x']);
      const lines = [
        JSON.stringify(run('a', 1)),
        ...(clockSkewed ? [JSON.stringify(b), JSON.stringify(a)] : [JSON.stringify(a), JSON.stringify(b)]),
        'not json',
        JSON.stringify(run('gone', 30)),
        JSON.stringify({ runId: 'gone', removed: true }),
        JSON.stringify(run('c', 40)),
        '{"runId":"torn","descr',
      ];
      await rm(path.join(directory, 'index.jsonl'), { force: true });
      const { index, warnings } = await readIndex(lines, true);
      expect([...index.oldestFirst()].map((summary) => summary.runId)).toEqual(clockSkewed ? ['c', 'a', 'b'] : ['a', 'b', 'c']);
      expect(index.get('a')).toEqual(a);
      expect(index.get('gone')).toBeUndefined();
      expect(index.runOf('x')).toBe('b');
      expect(index.totalBytes).toBe(300);
      expect(warnings).toEqual([
        'index.jsonl: line 4 is not a run index line; it was skipped',
        'index.jsonl: the last line was cut short (a crash while writing?); it was skipped',
      ]);
    }
  });
});
