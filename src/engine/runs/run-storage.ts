/**
 * The run log's machinery behind its public face (run-log.ts): the writer, the index, the recorder of the
 * task events and the changed proposals, wired so that a run's lines and its index line go out together,
 * reads see what this process still holds, and removals (retention, Clear History) never race a write.
 */
import { lstat, rm } from 'node:fs/promises';
import type { Clock } from '../clock.js';
import { errorMessage } from '../errors.js';
import { ChangedProposals } from './run-changes.js';
import type { RunIndex } from './run-index.js';
import type { RunSigning } from './run-log-key.js';
import { type ReadRunOptions, type RunContents, readRunFile } from './run-log-reader.js';
import { runKeyOf } from './run-log-signature.js';
import { safeRunId } from './run-log-records.js';
import { RunLogWriter } from './run-log-writer.js';
import { RunRecorder } from './run-recorder.js';
import { type RetentionPolicy, pruneRuns } from './run-retention.js';

export class RunStorage {
  readonly writer: RunLogWriter;
  readonly recorder: RunRecorder;
  readonly changed = new ChangedProposals();
  private readonly writesSoon = new Set<string>();
  /** Per run, the MAC its next line chains from at the size it was last read: a writer opening it again needs not read it again. */
  private readonly tails = new Map<string, { bytes: number; tail: string }>();
  private maintenance: Promise<void> = Promise.resolve();

  constructor(
    readonly directory: string,
    readonly index: RunIndex,
    readonly warn: (message: string) => void,
    private readonly clock: Clock,
    private readonly retention: RetentionPolicy,
    private readonly signing: RunSigning,
  ) {
    this.writer = new RunLogWriter(directory, {
      warn,
      onRecordsLost: (runId) => {
        this.recorder.recordsLost(runId);
        this.changed.forgetWritten(runId);
      },
      onReleased: (runId) => this.changed.forgetWritten(runId),
      knownBytes: (runId) => index.get(runId)?.bytes ?? 0,
      signing: { runKey: (runId) => this.runKeyOf(runId), chainTail: (runId, bytes) => this.chainTail(runId, bytes) },
    });
    this.recorder = new RunRecorder({
      writer: this.writer,
      index,
      now: () => clock.now(),
      writeRun: (runId, options) => this.writeRun(runId, options),
      rootEnded: (_runId, written) => this.scheduleRetention(written),
    });
  }

  /** Writes the run's held lines (its changed proposals first), then the index's pending lines. */
  async writeRun(runId: string, options: { sync?: boolean } = {}): Promise<void> {
    await this.writeLines(runId, options);
    await this.index.writePending();
  }

  /** `writeRun` without the index: resolves once the run's own lines are in its file (often in this turn). */
  writeLines(runId: string, options: { sync?: boolean } = {}): Promise<void> {
    this.changed.take(runId, (record) => this.writer.add(runId, record));
    return this.writer.write(runId, options);
  }

  /** Writes the run at the end of this turn of the event loop: what changed together goes in one write. */
  writeSoon(runId: string): void {
    if (this.writesSoon.has(runId)) return;
    this.writesSoon.add(runId);
    queueMicrotask(() => {
      this.writesSoon.delete(runId);
      void this.writeRun(runId);
    });
  }

  /** True while this process writes the run: a task open, or lines held or in flight. */
  isBeingWritten(runId: string): boolean {
    return this.recorder.hasOpenTasks(runId) || this.writer.isBusy(runId);
  }

  /** Everything held is written, and retention under way is done. */
  async flush(): Promise<void> {
    await Promise.all(this.changed.runs().map((runId) => this.writeRun(runId)));
    await this.writer.writeAll();
    await this.index.writePending();
    await this.maintenance;
    await this.index.writePending();
  }

  /** Flushes, then closes every run file this process holds open. */
  async close(): Promise<void> {
    await this.flush();
    await this.writer.releaseAll();
  }

  /**
   * The run's file read back, after what this process holds for it is written; undefined for none (or an
   * unreadable one, warned). Its lines are checked against their MACs unless `check` is false.
   */
  async read(runId: string, options: ReadRunOptions, check = true): Promise<RunContents | undefined> {
    if (!safeRunId.test(runId)) return undefined;
    if (this.writer.isBusy(runId) || this.changed.runs().includes(runId)) await this.writeRun(runId);
    try {
      const verify = check
        ? { runKey: this.runKeyOf(runId), ...('problem' in this.signing ? { problem: this.signing.problem } : {}) }
        : undefined;
      const contents = await readRunFile(this.writer.filePathOf(runId), runId, { ...options, ...(verify ? { verify } : {}) }, this.warn);
      if (!contents) return undefined;
      const { read, ...rest } = contents;
      if (read) this.tails.set(runId, { bytes: read.bytes, tail: read.tail });
      if (rest.signature.status !== 'foreign' || rest.signature.reason !== 'altered') return rest;
      // A signed file whose chain broke: only its first lines verified. Whoever reads it anyway (--force) gets it whole.
      const whole = await readRunFile(this.writer.filePathOf(runId), runId, options, this.warn);
      if (!whole) return rest;
      const { read: _unchecked, ...wholeContents } = whole;
      return { ...wholeContents, signature: rest.signature };
    } catch (error) {
      this.warn(`Could not read run ${runId}: ${errorMessage(error)}`);
      return undefined;
    }
  }

  private runKeyOf(runId: string): Buffer | undefined {
    return 'key' in this.signing ? runKeyOf(this.signing.key, runId) : undefined;
  }

  /** From the last read at this size, or by reading the file's MACs (its records are skipped unparsed). */
  private async chainTail(runId: string, bytes: number): Promise<string> {
    const known = this.tails.get(runId);
    if (known?.bytes === bytes) return known.tail;
    const contents = await readRunFile(
      this.writer.filePathOf(runId),
      runId,
      { only: new Set(), verify: { runKey: this.runKeyOf(runId) } },
      () => undefined,
    );
    return contents?.read?.tail ?? '';
  }

  /** Applies retention now. */
  async prune(): Promise<void> {
    try {
      // The index is not signed: one planted line claiming a huge run would have the user's runs removed to make room. Over the limit, the files say.
      const totalBytes = this.index.totalBytes > this.retention.maxBytes ? await this.measuredBytes() : this.index.totalBytes;
      const state = {
        runs: this.index.oldestFirst(),
        count: this.index.size,
        totalBytes,
        now: this.clock.now(),
        isBeingWritten: (runId: string) => this.isBeingWritten(runId),
      };
      if ((await pruneRuns(state, this.retention, (runId) => this.removeRun(runId))).length > 0) await this.index.writePending();
    } catch (error) {
      this.warn(`Run log retention failed in ${this.directory}: ${errorMessage(error)}`);
    }
  }

  /** The run files' sizes on disk (a run the index lists without a file counts nothing). */
  private async measuredBytes(): Promise<number> {
    let total = 0;
    for (const runId of [...this.index.runIds()]) total += (await lstat(this.writer.filePathOf(runId)).catch(() => undefined))?.size ?? 0;
    return total;
  }

  /** The file first, then the tombstone: a run whose file could not be deleted stays listed. */
  async removeRun(runId: string): Promise<void> {
    this.changed.forget(runId);
    this.tails.delete(runId);
    await this.writer.discard(runId);
    try {
      await rm(this.writer.filePathOf(runId), { force: true });
    } catch (error) {
      this.warn(`Could not delete run ${runId}: ${errorMessage(error)}`);
      return;
    }
    this.index.remove(runId);
  }

  /** Retention once `after` (an ended root's write) is done; `flush` waits for both. */
  private scheduleRetention(after: Promise<void>): void {
    this.maintenance = Promise.all([this.maintenance, after]).then(() => this.prune());
  }
}
