/**
 * B6's team as the benchmark runs it (bench/b6-memory.ts): the run log writes each run as it goes and the
 * task manager lets go of each ended task's transcript as the run goes, not at the final flush. Before,
 * a run file's first write waited for libuv's pool, and in this team (models answering at once, `Read` in
 * this thread) nothing else turned the event loop: every task's transcript and every run's lines stayed
 * in the heap until the flush, and C1's 100,000 tasks ran out of a 4 GB heap.
 */
import { describe, expect, it } from 'vitest';
import { createTeam, files, runDelegations, withRunLog } from '../../bench/b6-memory.js';
import { withTempFolder } from '../../bench/support/temp-folder.js';

const delegations = 12;

describe('B6 memory bench', () => {
  it("lets go of ended tasks' transcripts as the run goes, not only at the final flush", async () => {
    await withTempFolder(files, (root) =>
      withRunLog(async (runLog) => {
        const bench = createTeam(root, delegations, runLog);
        try {
          await runDelegations(bench, delegations);
          const tasks = bench.taskManager.list();
          expect(tasks).toHaveLength(delegations * 5);
          expect(tasks.every((task) => task.status === 'completed' && task.transcriptLength > 0)).toBe(true);
          // No flush yet: every researcher's transcript left the heap in the turn its run was written; a
          // coordinator's (a root) waits for its run's fsync, a later turn of the event loop.
          const subagentsHolding = tasks.filter((task) => task.parentId !== null && bench.taskManager.transcript(task.id).length > 0);
          expect(subagentsHolding).toEqual([]);
          // And every transcript comes back whole from the log.
          for (const task of tasks) expect(await bench.taskManager.readTranscript(task.id)).toHaveLength(task.transcriptLength);
        } finally {
          await bench.close();
        }
      }),
    );
  });
});
