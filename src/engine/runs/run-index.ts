/**
 * `<directory>/index.jsonl`: what is known of every run without opening its file (the listing, retention,
 * which run a task id belongs to). Append-only like the runs: a line per run as it starts and as its tasks
 * start and end, a tombstone when a run is deleted; the last line per run wins. So an append costs the
 * same with ten runs or ten thousand, the file is rewritten whole only once the lines that no longer
 * count outnumber the live runs (2 × live + 64): a rewrite costs the live runs, and comes once per
 * about that many appends. The lines of changes made between two writes are coalesced, one per run.
 */
import path from 'node:path';
import { errorMessage } from '../errors.js';
import { appendText, endsWithNewline, openForAppend } from './json-lines-file.js';
import { type RunSummary, inTimeOrder, indexFileName, readIndexFile, rewriteIndexFile, tombstoneLine } from './run-index-file.js';
import { type IndexEntry, UnreadSummary, readSummary } from './run-index-scan.js';
import { TaskLookup } from './run-index-tasks.js';

export type { RunSummary } from './run-index-file.js';

export class RunIndex {
  /** Oldest first (by `updatedAt`): an update moves a run to the end. A line read but not yet asked for whole stays unread. */
  private summaries = new Map<string, IndexEntry>();
  private readonly tasks = new TaskLookup(() => this.summaries.values());
  /** The line each changed run still has to get, in the order they changed (a later change replaces it). */
  private readonly pending = new Map<string, string>();
  private linesInFile = 0;
  private tailChecked = false;
  private total = 0;
  private chain: Promise<void> = Promise.resolve();

  private constructor(
    private readonly directory: string,
    private readonly warn: (message: string) => void,
  ) {}

  /** Reads the index (an absent one is empty); damaged lines are skipped with a warning. */
  static async read(directory: string, warn: (message: string) => void): Promise<RunIndex> {
    const index = new RunIndex(directory, warn);
    const { latest, lines } = await readIndexFile(index.filePath, warn);
    index.linesInFile = lines;
    index.summaries = inTimeOrder(latest);
    for (const summary of index.summaries.values()) index.total += summary.bytes;
    return index;
  }

  get filePath(): string {
    return path.join(this.directory, indexFileName);
  }

  get(runId: string): RunSummary | undefined {
    const entry = this.summaries.get(runId);
    return entry && this.read(entry);
  }

  /** Oldest first (by when they last changed). */
  *oldestFirst(): IterableIterator<RunSummary> {
    for (const entry of this.summaries.values()) yield this.read(entry);
  }

  /** The newest `count` runs, oldest first, as `[...oldestFirst()].slice(-count)`, parsing only those. */
  newest(count: number): RunSummary[] {
    return [...this.summaries.values()].slice(-count).map((entry) => this.read(entry));
  }

  /** Every run's id, oldest first. */
  runIds(): IterableIterator<string> {
    return this.summaries.keys();
  }

  /** Every task id of every run (a task two runs list, twice), without parsing their lines whole. */
  *taskIds(): IterableIterator<string> {
    for (const entry of this.summaries.values()) yield* entry.taskIds;
  }

  get size(): number {
    return this.summaries.size;
  }

  /** The sum of the live runs' `bytes`. */
  get totalBytes(): number {
    return this.total;
  }

  runOf(taskId: string): string | undefined {
    return this.tasks.runOf(taskId);
  }

  /** Records a run's new state; its line is written by the next `writePending`. */
  update(summary: RunSummary): void {
    this.put(summary);
    this.pending.delete(summary.runId);
    this.pending.set(summary.runId, JSON.stringify(summary));
  }

  /** Forgets a run; its tombstone is written by the next `writePending`. */
  remove(runId: string): void {
    const summary = this.summaries.get(runId);
    if (summary) {
      this.total -= summary.bytes;
      this.tasks.removed(summary);
    }
    this.summaries.delete(runId);
    this.pending.delete(runId);
    this.pending.set(runId, tombstoneLine(runId));
  }

  /** Appends the lines of every change so far in one write, then rewrites the file if it has grown stale. */
  writePending(): Promise<void> {
    if (this.pending.size === 0) return this.chain;
    const lines = [...this.pending.values()];
    this.pending.clear();
    this.chain = this.chain.then(async () => {
      try {
        const handle = await openForAppend(this.filePath);
        try {
          // A line another process left cut short must not swallow the first of these.
          const separator = this.tailChecked || (await endsWithNewline(handle)) ? '' : '\n';
          this.tailChecked = true;
          await appendText(handle, `${separator}${lines.join('\n')}\n`);
        } finally {
          await handle.close();
        }
        this.linesInFile += lines.length;
        if (this.linesInFile - this.summaries.size > 2 * this.summaries.size + 64) await this.rewrite();
      } catch (error) {
        this.warn(`Could not write the run index ${this.filePath}: ${errorMessage(error)}`);
      }
    });
    return this.chain;
  }

  /** Rewrites the file with the last line per live run now (after the pending lines). */
  compact(): Promise<void> {
    this.chain = this.chain.then(() =>
      this.rewrite().catch((error: unknown) => this.warn(`Could not compact the run index ${this.filePath}: ${errorMessage(error)}`)),
    );
    return this.chain;
  }

  /** The entry whole; an unread one is parsed once and kept so, in its place. */
  private read(entry: IndexEntry): RunSummary {
    if (!(entry instanceof UnreadSummary)) return entry;
    const summary = readSummary(entry);
    this.summaries.set(summary.runId, summary);
    return summary;
  }

  private put(summary: RunSummary): void {
    this.tasks.recorded(summary);
    const previous = this.summaries.get(summary.runId);
    this.total += summary.bytes - (previous?.bytes ?? 0);
    this.summaries.delete(summary.runId);
    this.summaries.set(summary.runId, summary);
  }

  /** Reads the file again rather than writing what this process holds: runs another process appended since are kept. */
  private async rewrite(): Promise<void> {
    const { latest, refused } = await readIndexFile(this.filePath, this.warn);
    if (refused) return;
    await rewriteIndexFile(this.filePath, latest.values());
    this.linesInFile = latest.size;
  }
}
