/**
 * The task manager's side of the transcript archive (transcript-archive.ts): lets go of an ended task's
 * transcript once the archive holds it, reads it back for whoever asks, and puts it back in place when an
 * interrupted task is resumed (its transcript then grows again). And what the transcripts held share: a
 * tool result that recurs (the same file read by task after task) is held once.
 */
import type { TranscriptEntry } from '../agent/types.js';
import { errorMessage } from '../errors.js';
import { TextInterner } from '../util/text-interner.js';
import { TaskError } from './task-error.js';
import { type TaskRecord, hasEnded, transcriptWithNotice } from './task-record.js';
import type { ArchivedTranscript, TranscriptArchive } from './transcript-archive.js';

/** Tool results the interner keeps while transcripts are archived: only running tasks' are held then. */
const archivedInternerCapacity = 100;

export class TranscriptArchiving {
  /** Where ended tasks' transcripts go now; undefined when none does (or it was detached). */
  private archive: TranscriptArchive | undefined;
  /** The archive transcripts were handed to: they are read back from it even once it is detached. */
  private reader: TranscriptArchive | undefined;
  /** 1,000 texts while the whole history's transcripts are held; fewer once they are archived. */
  private interner = new TextInterner();
  /** Asks of the archive not answered yet (`settled` waits for them). */
  private readonly asking = new Set<Promise<void>>();

  constructor(
    private readonly maxTranscriptEntries: number,
    private readonly warn: (message: string, cause?: unknown) => void,
  ) {}

  /** The copy already held of a tool result's text, or the text itself, now held. */
  intern(text: string): string {
    return this.interner.intern(text);
  }

  /**
   * From now on, ended tasks' transcripts go to `archive`, those of `ended` (tasks that ended before) too.
   * One archive per manager: a transcript must be read back from where it went. Returns the detach.
   */
  use(archive: TranscriptArchive, ended: readonly TaskRecord[]): () => void {
    if (this.reader !== undefined && this.reader !== archive)
      throw new TaskError(
        'invalid-options',
        'This task manager already archives its transcripts elsewhere; a manager has one transcript archive.',
      );
    if (this.reader === undefined) this.interner = new TextInterner(archivedInternerCapacity);
    this.archive = archive;
    this.reader = archive;
    for (const record of ended) this.taskEnded(record);
    return () => {
      if (this.archive === archive) this.archive = undefined;
    };
  }

  /** The task has ended: once the archive holds its transcript, the heap no longer does. */
  taskEnded(record: TaskRecord): void {
    const archive = this.archive;
    if (!archive || record.transcriptInArchive || !hasEnded(record)) return;
    const asked = archive.holds(record.id).then(
      (held) => {
        if (!held || record.transcriptInArchive) return;
        record.transcript = [];
        record.transcriptInArchive = true;
      },
      (error: unknown) =>
        this.warn(`could not learn whether task ${record.id}'s transcript is kept: ${errorMessage(error)}; it stays in memory`, error),
    );
    this.asking.add(asked);
    void asked.finally(() => this.asking.delete(asked));
  }

  /** Resolves once every transcript the archive was asked about is let go of (or kept, or brought back). */
  async settled(): Promise<void> {
    while (this.asking.size > 0) await Promise.all(this.asking);
  }

  /** The transcript of a task whose transcript is in the archive, as `transcriptOf` gives one in memory. */
  async read(record: TaskRecord): Promise<TranscriptEntry[]> {
    const kept = await this.readKept(record);
    if (kept) return transcriptWithNotice(kept.entries, kept.droppedEntries);
    return [
      Object.freeze({
        type: 'notice',
        text: `The transcript of task ${record.id} is no longer kept: its run was removed from the run history.`,
      }),
    ];
  }

  /**
   * `record` is a resumed task whose transcript was archived (its first `earlier` entries): they come back
   * from the archive ahead of the entries it records meanwhile. Resuming does not wait for them: the
   * tasks of a run are resumed in one pass, before any of their work starts (team/resume-run.ts).
   */
  bringBack(record: TaskRecord, earlier: number): void {
    const asked = this.readKept(record).then((kept) => {
      // Ended (and archived) again meanwhile: the archive has all of it.
      if (!kept || record.transcriptInArchive) return;
      // The archive may hold some of the entries recorded since the resume too: only the earlier ones are taken.
      const before = kept.entries.slice(0, Math.max(0, earlier - kept.droppedEntries));
      record.transcript = [...before, ...record.transcript].slice(-this.maxTranscriptEntries);
      record.droppedTranscriptEntries = record.transcriptLength - record.transcript.length;
    });
    this.asking.add(asked);
    void asked.finally(() => this.asking.delete(asked));
  }

  private async readKept(record: TaskRecord): Promise<ArchivedTranscript | undefined> {
    try {
      return await this.reader?.read(record.id, this.maxTranscriptEntries);
    } catch (error) {
      this.warn(`could not read task ${record.id}'s transcript back: ${errorMessage(error)}`, error);
      return undefined;
    }
  }
}
