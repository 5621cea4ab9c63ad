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
import { parseIndexLine } from '../../src/engine/runs/run-index-line.js';

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

  it('answers every query as the index read whole and checked line by line did, before and after changes', async () => {
    const { text, damaged } = generatedLog();
    await writeFile(path.join(directory, 'index.jsonl'), text);
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * 1024 * 1024);
    const warnings: string[] = [];
    const index = await RunIndex.read(directory, (message) => warnings.push(message));
    const eager = eagerIndex(text);
    expect(warnings).toEqual([
      ...damaged.map((lineNumber) => `index.jsonl: line ${lineNumber} is not a run index line; it was skipped`),
      'index.jsonl: the last line was cut short (a crash while writing?); it was skipped',
    ]);
    const compare = () => {
      const taskIds = [...new Set([...eager.summaries.values()].flatMap((summary) => summary.taskIds)), 'missing'];
      expect([...index.taskIds()].sort()).toEqual([...eager.summaries.values()].flatMap((summary) => summary.taskIds).sort());
      expect(taskIds.map((taskId) => index.runOf(taskId))).toEqual(taskIds.map((taskId) => eager.tasks.get(taskId)));
      expect(index.newest(50)).toEqual([...eager.summaries.values()].slice(-50));
      expect(index.get('r7')).toEqual(eager.summaries.get('r7'));
      expect([...index.oldestFirst()]).toEqual([...eager.summaries.values()]);
      expect([index.size, index.totalBytes]).toEqual([eager.summaries.size, eager.total()]);
    };
    compare();
    // Changes as the recorder and retention make them: a run's new line (fewer tasks), runs deleted, one sharing a task.
    const changed = { ...eager.summaries.get('r11')!, taskIds: ['r11'], updatedAt: 9e12 };
    const fresh = await RunIndex.read(directory, () => undefined);
    for (const subject of [index, fresh]) subject.update(changed);
    eager.put(changed);
    for (const runId of ['r12', 'r13', 'shared-1']) {
      index.remove(runId);
      eager.remove(runId);
    }
    compare();
    expect(fresh.runOf('r11-child')).toBe(eager.tasks.get('r11-child'));
  });
});

/**
 * An index as years of use and a few accidents leave it, over several of the 1 MiB chunks it is read in: runs and their later
 * lines (some from a clock behind), tombstones and a run written again after one, tasks two runs claim,
 * lines another writer spaced or ordered its own way, damaged and empty lines, multi-byte titles, a torn
 * last line.
 */
function generatedLog(): { text: string; damaged: number[] } {
  const lines: string[] = [];
  const damaged: number[] = [];
  const titles = ['Find the parser', 'Überprüfe die Eingabe 😀', 'a "quoted" \\ title', '日本語のタイトル'];
  const summaryOf = (number: number, updatedAt: number): RunSummary => ({
    runId: `r${number}`,
    description: `${titles[number % titles.length]} ${number} ${'·'.repeat(number % 500)}`,
    role: 'coordinator',
    status: number % 9 === 0 ? 'running' : 'completed',
    createdAt: number,
    updatedAt,
    bytes: number * 10,
    taskIds: [`r${number}`, `r${number}-child`, ...(number % 17 === 0 ? ['shared-task'] : [])],
    ...(number % 2 === 0 ? { openTasks: number % 9 === 0 ? 1 : 0 } : {}),
  });
  for (let number = 0; number < 2500; number++) {
    lines.push(JSON.stringify(summaryOf(number, 1000 + number)));
    if (number % 5 === 0 && number > 0) lines.push(JSON.stringify(summaryOf(number - 3, number % 10 === 0 ? 500 : 2000 + number)));
    if (number % 50 === 0) lines.push(JSON.stringify({ runId: `r${number - 1}`, removed: true }));
    if (number % 50 === 1 && number > 100) lines.push(JSON.stringify(summaryOf(number - 52, 3000 + number)));
    if (number % 80 === 0) {
      const { runId, ...rest } = summaryOf(number + 1, 1000 + number);
      lines.push(JSON.stringify({ ...rest, runId }, null, 1).replaceAll('\n', ''));
    }
    if (number % 130 === 0) lines.push('');
    if (number % 97 === 0) {
      lines.push(number % 2 === 0 ? 'not json' : JSON.stringify({ ...summaryOf(number, 1), bytes: -1 }));
      damaged.push(lines.length);
    }
  }
  lines.push(JSON.stringify({ ...summaryOf(1, 5000), runId: 'shared-1', taskIds: ['shared-1', 'r3-child'] }));
  return { text: `${lines.join('\n')}\n${JSON.stringify(summaryOf(4000, 1)).slice(0, 40)}`, damaged };
}

/** The index as it was read before the fast path: every line parsed and checked, each run recorded in turn. */
function eagerIndex(text: string) {
  const latest = new Map<string, RunSummary>();
  for (const line of text.split('\n').slice(0, -1)) {
    const parsed = line === '' ? undefined : parseIndexLine(line);
    if (parsed === undefined) continue;
    latest.delete(parsed.runId);
    if (!('removed' in parsed)) latest.set(parsed.runId, parsed);
  }
  const summaries = new Map<string, RunSummary>();
  const tasks = new Map<string, string>();
  let total = 0;
  const put = (summary: RunSummary) => {
    total += summary.bytes - (summaries.get(summary.runId)?.bytes ?? 0);
    summaries.delete(summary.runId);
    summaries.set(summary.runId, summary);
    for (const taskId of summary.taskIds) tasks.set(taskId, summary.runId);
  };
  const remove = (runId: string) => {
    const summary = summaries.get(runId);
    if (summary) {
      total -= summary.bytes;
      for (const taskId of summary.taskIds) if (tasks.get(taskId) === runId) tasks.delete(taskId);
    }
    summaries.delete(runId);
  };
  for (const summary of [...latest.values()].sort((a, b) => a.updatedAt - b.updatedAt)) put(summary);
  return { summaries, tasks, put, remove, total: () => total };
}
