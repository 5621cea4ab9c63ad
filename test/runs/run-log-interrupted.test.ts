/**
 * A run left unfinished in the log by a process that died: the next window reads it as it was (running),
 * records it as interrupted, and from then on the file and the index agree with the task manager.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { StagedWork } from '../tasks/support/staged-work.js';
import { createRunLogWorld, type RunLogWorld, task } from './support/run-log-world.js';

let world: RunLogWorld | undefined;

afterEach(async () => {
  await world?.remove();
  world = undefined;
});

describe('RunLog.recordInterrupted', () => {
  it('writes the unfinished tasks of a dead process as interrupted, in the file and the index', async () => {
    world = await createRunLogWorld();
    const work = new StagedWork();
    const { task: started } = await world.manager.start(task(work));
    await work.started;
    // The process dies here: nothing more is written for the run.
    const next = await world.reopen();
    const loaded = (await next.loadRun(started.id)).tasks.map((persisted) => persisted.task);
    expect(loaded.map((snapshot) => snapshot.status)).toEqual(['running']);

    next.recordInterrupted(loaded, 1_800_000_000_000);
    await next.flush();
    const after = await world.reopen();
    expect(
      (await after.loadRun(started.id)).tasks.map((persisted) => [
        persisted.task.status,
        persisted.task.stopReason,
        persisted.task.endedAt,
      ]),
    ).toEqual([['interrupted', { kind: 'interrupted' }, 1_800_000_000_000]]);
    expect(after.runs().map((run) => [run.runId, run.status])).toEqual([[started.id, 'interrupted']]);
    await after.close();
    await next.close();
    work.complete('late');
  });
});
