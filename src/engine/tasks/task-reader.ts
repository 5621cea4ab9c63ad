/**
 * What anyone may read of the tasks, as frozen snapshots: one task, the list, a tree, the children, the
 * transcripts, the text a running task streams, the unended tasks a task hears of. The task manager
 * (task-manager.ts) extends it with everything that changes tasks.
 */
import type { TranscriptEntry } from '../agent/types.js';
import type { BackgroundNotices } from './background-notices.js';
import { TaskError } from './task-error.js';
import { type TaskRecord, hasEnded, partialOutputOf, snapshotOf, transcriptOf } from './task-record.js';
import type { TaskTree } from './task-tree.js';
import type { TranscriptArchiving } from './transcript-archiving.js';
import type { TaskSnapshot } from './types.js';

export class TaskReader {
  constructor(
    protected readonly tree: TaskTree,
    /** Where ended tasks' transcripts go, and what the transcripts held in memory share. */
    protected readonly archiving: TranscriptArchiving,
    protected readonly notices: BackgroundNotices,
  ) {}

  get(id: string): TaskSnapshot | undefined {
    const record = this.tree.get(id);
    return record ? snapshotOf(record) : undefined;
  }

  /** Every task, in creation order (a parent before its children). */
  list(): TaskSnapshot[] {
    return this.tree.all().map(snapshotOf);
  }

  /** The tasks of the tree `rootId` heads, parents first (empty for an unknown id): a tree's own lookups never walk the whole history. */
  treeOf(rootId: string): TaskSnapshot[] {
    const root = this.tree.get(rootId);
    return root ? this.tree.subtreeOf(root).map(snapshotOf) : [];
  }

  children(id: string): TaskSnapshot[] {
    return this.tree.childrenOf(this.tree.get(id)).map(snapshotOf);
  }

  /** The kept transcript entries (see `maxTranscriptEntries`); empty for an unknown id or an archived transcript. */
  transcript(id: string): TranscriptEntry[] {
    const record = this.tree.get(id);
    return record ? transcriptOf(record) : [];
  }

  /** As `transcript`; an archived transcript (`archiveTranscripts`) is read back from the archive. */
  async readTranscript(id: string): Promise<TranscriptEntry[]> {
    const record = this.tree.get(id);
    return record?.transcriptInArchive ? this.archiving.read(record) : this.transcript(id);
  }

  /** The unended tasks whose notices come to `id`: its own below it, and those its ended subtasks left (background-notices.ts). */
  awaitedBy(id: string): TaskSnapshot[] {
    return this.notices.awaitedBy(id).map(snapshotOf);
  }

  /** As `awaitedBy`, their ids only: an agent waiting out its background tasks asks after every turn, and needs no snapshots. */
  awaitedIds(id: string): string[] {
    return this.notices.awaitedBy(id).map((record) => record.id);
  }

  /** The text a running task has streamed since its last finished step ('' when none): a live view's catch-up. */
  streamingText(id: string): string {
    const record = this.tree.get(id);
    return record && !hasEnded(record) ? record.streamingText : '';
  }

  /** What an unfinished task has produced so far (its streamed text); for an ended task, its output. */
  partialOutput(id: string): string | undefined {
    const record = this.tree.get(id);
    if (!record) return undefined;
    return hasEnded(record) ? record.output : partialOutputOf(record);
  }

  protected require(id: string): TaskRecord {
    const record = this.tree.get(id);
    if (!record) throw new TaskError('unknown-task', `There is no task ${id}; list the tasks to see which ids exist.`);
    return record;
  }
}
