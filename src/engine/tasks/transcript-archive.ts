/**
 * Where finished tasks' transcripts live instead of the heap. A host that keeps a durable record of every
 * transcript entry (the run log, src/engine/runs) hands it to the task manager (`archiveTranscripts`);
 * once a task has ended and the archive says it holds all of the task's entries, the manager lets go of
 * them and keeps the task's summary (its snapshot: status, output, usage, ids). A long history then
 * costs the heap its summaries alone (B6 in docs/performance.md), and a finished task's transcript is
 * read back when somebody asks for it (`TaskManager.readTranscript`). Without an archive (tests, hosts
 * that keep no run log) transcripts stay in memory, as they always did.
 */
import type { TranscriptEntry } from '../agent/types.js';

export interface ArchivedTranscript {
  /** The most recent entries, in order. */
  entries: TranscriptEntry[];
  /** Older entries left out to keep the limit asked for (0 when none). */
  droppedEntries: number;
}

export interface TranscriptArchive {
  /**
   * Resolves true once every transcript entry of the ended task `taskId` is durably kept (written, and
   * no write of its run failed), false when they are not or might not be (the manager then keeps them).
   * Must not reject.
   */
  holds(taskId: string): Promise<boolean>;
  /** The task's entries read back, at most the `maxEntries` most recent; undefined when they are no longer kept. Must not reject. */
  read(taskId: string, maxEntries: number): Promise<ArchivedTranscript | undefined>;
}
