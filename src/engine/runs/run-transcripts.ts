/**
 * The run log as the task manager's transcript archive (tasks/transcript-archive.ts): it already writes
 * every transcript entry of every task it follows, so once an ended task's lines are written the manager
 * can let go of them, and a finished task's transcript is read back from its run's file when somebody
 * opens it. The log says it holds a task's transcript only when it saw all of it: a task it took up
 * halfway (attached late, or resumed from a history kept elsewhere), an entry it refused (over the line
 * cap) or a failed write of the run keeps that transcript in memory.
 */
import type { TranscriptArchive } from '../tasks/transcript-archive.js';
import type { RunStorage } from './run-storage.js';

const transcriptRecords = new Set(['task', 'entry'] as const);

export function runTranscripts(storage: RunStorage): TranscriptArchive {
  return {
    async holds(taskId) {
      const runId = storage.recorder.runOf(taskId);
      if (runId === undefined || !storage.recorder.holdsWhole(taskId, runId)) return false;
      // The run's own lines are what hold the transcript; the index's line (which only says where the run is)
      // follows on its own, so a task's transcript leaves the heap without waiting for it.
      await storage.writeLines(runId);
      // Asked again: the write may just have failed.
      return storage.recorder.holdsWhole(taskId, runId);
    },
    async read(taskId, maxEntries) {
      const runId = storage.recorder.runOf(taskId);
      if (runId === undefined) return undefined;
      const contents = await storage.read(runId, { maxTranscriptEntries: maxEntries, only: transcriptRecords, task: taskId });
      const task = contents?.tasks.find((persisted) => persisted.task.id === taskId);
      return task ? { entries: task.transcript, droppedEntries: task.droppedTranscriptEntries } : undefined;
    },
  };
}
