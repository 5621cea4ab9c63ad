import { appendFile, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunIndex, type RunSummary } from '../../src/engine/runs/run-index.js';
import { resolveRetention, runsToPrune } from '../../src/engine/runs/run-retention.js';
import { StagedWork } from '../tasks/support/staged-work.js';
import { type RunLogWorld, createRunLogWorld, finishedRun, task } from './support/run-log-world.js';

const dayMs = 24 * 60 * 60 * 1000;
let world: RunLogWorld;

afterEach(async () => {
  await world.remove();
});

async function exists(file: string): Promise<boolean> {
  return stat(path.join(world.directory, file)).then(
    () => true,
    () => false,
  );
}

/** Finished runs, `gapMs` apart on the clock; returns their ids, oldest first. */
async function finishedRuns(count: number, gapMs: number): Promise<string[]> {
  const ids: string[] = [];
  for (let run = 0; run < count; run++) {
    ids.push(await finishedRun(world.manager, `run ${run}`));
    await world.runLog.flush();
    await world.clock.advance(gapMs);
  }
  return ids;
}

describe('run retention', () => {
  it('removes runs older than the age limit after a run ends, file first, then the index line', async () => {
    world = await createRunLogWorld({ retention: { maxAgeDays: 30 } });
    await finishedRuns(2, 20 * dayMs); // t1 at day 0, t2 at day 20
    await finishedRun(world.manager); // t3 at day 40: t1 is 40 days old
    await world.runLog.flush();
    expect(await exists('t1.jsonl')).toBe(false);
    expect(await exists('t2.jsonl')).toBe(true);
    expect(world.runLog.runs().map((run) => run.runId)).toEqual(['t3', 't2']);
    expect(await readFile(path.join(world.directory, 'index.jsonl'), 'utf8')).toContain('{"runId":"t1","removed":true}');
    expect((await world.reopen()).runs().map((run) => run.runId)).toEqual(['t3', 't2']);
  });

  it('applies retention when it opens', async () => {
    world = await createRunLogWorld();
    await finishedRuns(2, 20 * dayMs); // now day 40: t1 40 days old, t2 20
    expect((await world.reopen()).runs().map((run) => run.runId)).toEqual(['t2']);
  });

  it('keeps the newest runs up to the count', async () => {
    world = await createRunLogWorld({ retention: { keepRuns: 2 } });
    await finishedRuns(4, 1000);
    expect(world.runLog.runs().map((run) => run.runId)).toEqual(['t4', 't3']);
    expect(await exists('t2.jsonl')).toBe(false);
  });

  it('removes the oldest runs while all of them are over the size limit', async () => {
    world = await createRunLogWorld();
    await finishedRuns(3, 1000);
    const sizes = world.runLog.runs().map((run) => run.bytes);
    // Room for two runs and a little: the oldest goes.
    const log = await world.reopen({ retention: { maxBytes: sizes[0]! + sizes[1]! + 10 } });
    expect(log.runs().map((run) => run.runId)).toEqual(['t3', 't2']);
    expect(await exists('t1.jsonl')).toBe(false);
  });

  it("removes none of the user's runs for an index line that claims a huge run without its file (planted)", async () => {
    world = await createRunLogWorld();
    await finishedRuns(3, 1000);
    const planted = {
      runId: 't900',
      description: 'planted',
      role: 'researcher',
      status: 'completed',
      createdAt: 0,
      updatedAt: 4e12,
      bytes: 2e9,
      taskIds: ['t900'],
    };
    await appendFile(path.join(world.directory, 'index.jsonl'), `${JSON.stringify(planted)}\n`);
    const log = await world.reopen({ retention: { maxBytes: 1024 * 1024 } });
    expect(log.runs().map((run) => run.runId)).toEqual(['t900', 't3', 't2', 't1']);
    expect(await exists('t1.jsonl')).toBe(true);
  });

  it('never removes a run still working, however old or many', async () => {
    world = await createRunLogWorld({ retention: { keepRuns: 1, maxAgeDays: 1 } });
    const working = new StagedWork();
    await world.manager.start(task(working));
    await world.clock.advance(3 * dayMs);
    await finishedRuns(2, 1000);
    expect(world.runLog.runs().map((run) => run.runId)).toEqual(['t3', 't1']);
    working.complete('done');
    await world.manager.wait('t1');
  });

  it('leaves a run another process is still working on, unless nobody touched it for longer than the age limit', () => {
    const run = (runId: string, updatedAt: number, status: RunSummary['status'], openTasks = 0): RunSummary => ({
      runId,
      description: '',
      role: 'coordinator',
      status,
      createdAt: updatedAt,
      updatedAt,
      bytes: 100,
      taskIds: [runId],
      openTasks,
    });
    const runs = [
      run('old-abandoned', 0, 'running'),
      run('root-done-child-working', 5 * dayMs, 'completed', 1),
      run('running', 6 * dayMs, 'waiting'),
      run('done', 7 * dayMs, 'completed'),
      run('newest', 8 * dayMs, 'completed'),
    ];
    const pruned = runsToPrune(
      { runs, count: runs.length, totalBytes: 500, now: 8 * dayMs, isBeingWritten: () => false },
      resolveRetention({ keepRuns: 1, maxAgeDays: 7.5 }),
    );
    expect(pruned.map((summary) => summary.runId)).toEqual(['old-abandoned', 'done']);
    const bySize = runsToPrune(
      { runs, count: runs.length, totalBytes: 500, now: 8 * dayMs, isBeingWritten: (runId) => runId === 'old-abandoned' },
      resolveRetention({ maxBytes: 250 }),
    );
    expect(bySize.map((summary) => summary.runId)).toEqual(['done', 'newest']);
  });
});

describe('the run index', () => {
  it('rewrites itself once stale lines outnumber the live runs, keeping the last line per run', async () => {
    world = await createRunLogWorld();
    const index = await RunIndex.read(world.directory, (message) => world.warnings.push(message));
    const summary = (runId: string, updatedAt: number): RunSummary => ({
      runId,
      description: `run ${runId}`,
      role: 'researcher',
      status: 'completed',
      createdAt: 0,
      updatedAt,
      bytes: updatedAt,
      taskIds: [runId],
    });
    for (let update = 1; update <= 80; update++) {
      index.update(summary(`r${update % 3}`, update));
      await index.writePending();
    }
    index.remove('r0');
    await index.writePending();
    const lines = (await readFile(index.filePath, 'utf8')).split('\n').filter((line) => line !== '');
    // Rewritten at the 67th line (3 live runs: 2 × 3 + 64 stale lines), then 14 more appended.
    expect(lines.length).toBeLessThan(20);
    const reread = await RunIndex.read(world.directory, (message) => world.warnings.push(message));
    expect([...reread.oldestFirst()]).toEqual([summary('r1', 79), summary('r2', 80)]);
    expect(reread.totalBytes).toBe(159);
    expect(world.warnings).toEqual([]);
  });

  it('keeps a run another process appended when it rewrites', async () => {
    world = await createRunLogWorld();
    const index = await RunIndex.read(world.directory, () => undefined);
    const other: RunSummary = {
      runId: 'other',
      description: '',
      role: 'r',
      status: 'completed',
      createdAt: 0,
      updatedAt: 0,
      bytes: 0,
      taskIds: ['other'],
    };
    await appendFile(index.filePath, `${JSON.stringify(other)}\n`);
    index.update({ ...other, runId: 'mine', taskIds: ['mine'] });
    await index.writePending();
    await index.compact();
    expect(
      (await readFile(index.filePath, 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => (JSON.parse(line) as RunSummary).runId),
    ).toEqual(['other', 'mine']);
  });
});
