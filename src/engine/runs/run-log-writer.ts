/**
 * Appends records to run files (`<directory>/<runId>.jsonl`). Records are serialized as they come and held
 * in memory per run; the caller decides when a run's lines go to disk (a turn boundary, a task's end,
 * a flush), and they go in one write call, appended: what it costs depends on the lines written, never on
 * the run's earlier size or on how many runs the directory holds. Writes to one file are serialized (a
 * promise chain per run), and asked-for writes that wait behind one in flight collapse into one. The file
 * is opened (in this thread: json-lines-file.ts) without following a link and kept open while the run is
 * written (closed on `release`); a
 * failed write is reported through `warn`, never thrown: the task manager's events must not fail
 * because a disk did. With `signing`, each line is signed as it goes out (run-log-signature.ts), chained
 * from the file's last verified line, which a process learns once per run file it opens.
 */
import { closeSync, fsync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { errorMessage } from '../errors.js';
import { appendTextNow, openForAppendNow, tailOfNow } from './json-lines-file.js';
import { type RunRecord, maxLineBytes, safeRunId, subjectOf } from './run-log-records.js';
import { signLine, signatureBytes } from './run-log-signature.js';

interface RunFile {
  /** Records as JSON, each without its newline (and its MAC: added as it is written). */
  lines: string[];
  bufferedBytes: number;
  /** The file's size as far as this process knows: the index's figure until the first write here reads it from the file. */
  bytes: number;
  measured: boolean;
  /** The open file's descriptor (closed on `release`, or after a failed write). */
  fd: number | undefined;
  /** The last write, or what follows it. */
  chain: Promise<void>;
  /** A write asked for and not yet started: it will take every line held when it starts. */
  queued: Promise<void> | undefined;
  syncWanted: boolean;
  /** Writes asked for and not yet finished. */
  inFlight: number;
  /** The run's signing key; undefined: lines go unsigned. */
  runKey: Buffer | undefined;
  /** The MAC the next line chains from; known once `measured`. */
  lastMac: string;
}

/** Held lines past this size are written at once, whatever the caller waits for. */
const maxBufferedBytes = 4 * 1024 * 1024;
const fsyncOf = promisify(fsync);

export interface RunLogWriterOptions {
  warn(message: string): void;
  /** A write failed and its records are lost: the records that continue earlier ones must start over. */
  onRecordsLost(runId: string): void;
  /** The run's file was closed here: what this process knows it holds may change before it is opened again. */
  onReleased(runId: string): void;
  /** The size the index gives a run's file, for a run this process has not written yet (0: none). */
  knownBytes(runId: string): number;
  /** Signs the lines (run-log-signature.ts). Absent: they go unsigned. */
  signing?: {
    runKey(runId: string): Buffer | undefined;
    /** The MAC a line appended to the run's file, now `bytes` long, chains from. */
    chainTail(runId: string, bytes: number): Promise<string>;
  };
}

export class RunLogWriter {
  private readonly files = new Map<string, RunFile>();
  private readonly refused = new Set<string>();
  private readonly overCap = new Set<string>();

  constructor(
    private readonly directory: string,
    private readonly options: RunLogWriterOptions,
  ) {}

  filePathOf(runId: string): string {
    return path.join(this.directory, `${runId}.jsonl`);
  }

  /**
   * Holds `record` for the run's next write. False (with a warning) when it is not kept: the run id could
   * name no file of this directory, or the line is over the cap.
   */
  add(runId: string, record: RunRecord): boolean {
    if (!safeRunId.test(runId)) {
      if (!this.refused.has(runId))
        this.options.warn(`Run ${JSON.stringify(runId.slice(0, 120))} is not logged: a run id is 1-100 letters, digits, '-' or '_'.`);
      this.refused.add(runId);
      return false;
    }
    const line = JSON.stringify(record);
    const file = this.fileOf(runId);
    const bytes = Buffer.byteLength(line, 'utf8') + 1 + (file.runKey ? signatureBytes : 0);
    if (bytes > maxLineBytes) {
      const size = (bytes / 1024 / 1024).toFixed(1);
      // Said once per task and kind: a conversation over the cap stays over it turn after turn.
      const what = `${runId}\0${record.type}\0${subjectOf(record)}`;
      if (this.overCap.has(what)) return false;
      this.overCap.add(what);
      this.options.warn(
        `Run ${runId}: the ${record.type} record of ${subjectOf(record)} is ${size} MiB, over the ${maxLineBytes / 1024 / 1024} MiB a line may hold; it was not written.`,
      );
      return false;
    }
    file.lines.push(line);
    file.bufferedBytes += bytes;
    if (file.bufferedBytes > maxBufferedBytes) void this.write(runId);
    return true;
  }

  /** The run file's size with what is held for it. */
  bytesOf(runId: string): number {
    const file = this.files.get(runId);
    return file ? file.bytes + file.bufferedBytes : this.options.knownBytes(runId);
  }

  /** True while lines are held for the run or being written. */
  isBusy(runId: string): boolean {
    const file = this.files.get(runId);
    return file !== undefined && (file.lines.length > 0 || file.inFlight > 0);
  }

  /**
   * Writes the lines held for the run; `sync`: then fsyncs the file. Resolves when written (or reported).
   * Once the run's file is open and nothing is in flight, the lines go in at once, before this returns:
   * a turn boundary's records are in the file before the model is sent its next request, so a process
   * killed while it waits loses nothing the next one needs (a tool result, the turn's conversation).
   */
  write(runId: string, options: { sync?: boolean } = {}): Promise<void> {
    const file = this.files.get(runId);
    if (!file) return Promise.resolve();
    if (!options.sync && (this.openNow(runId, file), this.writeNow(runId, file))) return Promise.resolve();
    if (options.sync) file.syncWanted = true;
    if (file.queued) return file.queued;
    if (file.lines.length === 0 && !file.syncWanted) return file.chain;
    file.inFlight++;
    const step = file.chain.then(async () => {
      file.queued = undefined;
      const lines = file.lines;
      const count = file.lines.length;
      const sync = file.syncWanted;
      file.lines = [];
      file.bufferedBytes = 0;
      file.syncWanted = false;
      try {
        await this.append(runId, file, lines, sync);
      } catch (error) {
        this.options.warn(
          `Could not write run ${runId} to ${this.filePathOf(runId)}: ${errorMessage(error)}; ${count} record(s) were lost.`,
        );
        this.options.onRecordsLost(runId);
        // The next write opens the file afresh (and measures it again: part of this one may have landed).
        this.closeFile(file);
      } finally {
        file.inFlight--;
      }
    });
    file.queued = step;
    file.chain = step;
    return step;
  }

  /** The synchronous path of `write`: false when it cannot be taken (the file not open yet, a write in flight). */
  private writeNow(runId: string, file: RunFile): boolean {
    if (file.lines.length === 0 || file.queued || file.inFlight > 0 || file.syncWanted || file.fd === undefined || !file.measured)
      return false;
    const text = this.textOf(file, file.lines);
    const count = file.lines.length;
    const bytes = file.bufferedBytes;
    file.lines = [];
    file.bufferedBytes = 0;
    try {
      file.bytes += appendTextNow(file.fd, text, bytes);
    } catch (error) {
      this.options.warn(`Could not write run ${runId} to ${this.filePathOf(runId)}: ${errorMessage(error)}; ${count} record(s) were lost.`);
      this.options.onRecordsLost(runId);
      this.closeFile(file);
    }
    return true;
  }

  /**
   * Opens and measures the run's file now, when nothing waits before it and no read is needed (an unsigned
   * run, or an empty file): its lines then go in at once. A failure is left to the write's own path, which
   * tries again and reports it.
   */
  private openNow(runId: string, file: RunFile): void {
    if (file.fd !== undefined || file.lines.length === 0 || file.queued || file.inFlight > 0) return;
    let fd: number | undefined;
    try {
      fd = openForAppendNow(this.filePathOf(runId));
      const tail = tailOfNow(fd);
      // A signed file's next line chains from its last verified one, which takes reading it: the write's own path does.
      if (file.runKey && tail.size > 0) return closeQuietly(fd);
      // An earlier process that crashed mid-line must not swallow our first line.
      if (!tail.endsWithNewline) file.bytes = tail.size + appendTextNow(fd, '\n', 1);
      else file.bytes = tail.size;
      file.fd = fd;
      file.lastMac = '';
      file.measured = true;
    } catch {
      if (fd !== undefined && file.fd === undefined) closeQuietly(fd);
    }
  }

  /** Closes the run's file; the next write opens it afresh and measures it again. */
  private closeFile(file: RunFile): void {
    if (file.fd !== undefined) closeQuietly(file.fd);
    file.fd = undefined;
    file.measured = false;
  }

  /** The lines as they go in the file: each signed when the run has a key, chained from the one before. */
  private textOf(file: RunFile, lines: readonly string[]): string {
    if (lines.length === 0) return '';
    if (!file.runKey) return `${lines.join('\n')}\n`;
    const signed: string[] = [];
    for (const json of lines) {
      const { line, mac } = signLine(file.runKey, file.lastMac, json);
      file.lastMac = mac;
      signed.push(line);
    }
    return `${signed.join('\n')}\n`;
  }

  /** Writes every run's held lines; resolves when all writes so far are done. */
  async writeAll(): Promise<void> {
    await Promise.all([...this.files.keys()].map((runId) => this.write(runId)));
  }

  /** Drops what is held for the run, waits for its writes in flight and closes it (before its file is deleted). */
  async discard(runId: string): Promise<void> {
    const file = this.files.get(runId);
    if (!file) return;
    file.lines = [];
    file.bufferedBytes = 0;
    await file.chain;
    await this.release(runId);
  }

  /** Closes a run nothing is held for (its tasks have all ended): neither handles nor memory grow with the runs written. */
  async release(runId: string): Promise<void> {
    const file = this.files.get(runId);
    if (!file || file.lines.length > 0 || file.inFlight > 0) return;
    this.files.delete(runId);
    this.options.onReleased(runId);
    this.closeFile(file);
  }

  /** Closes every run nothing is held for (the log is closing). */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.files.keys()].map((runId) => this.release(runId)));
  }

  private fileOf(runId: string): RunFile {
    let file = this.files.get(runId);
    if (!file) {
      const runKey = this.options.signing?.runKey(runId);
      file = {
        lines: [],
        bufferedBytes: 0,
        bytes: this.options.knownBytes(runId),
        measured: false,
        fd: undefined,
        chain: Promise.resolve(),
        queued: undefined,
        syncWanted: false,
        inFlight: 0,
        runKey,
        lastMac: '',
      };
      this.files.set(runId, file);
    }
    return file;
  }

  private async append(runId: string, file: RunFile, lines: string[], sync: boolean): Promise<void> {
    file.fd ??= openForAppendNow(this.filePathOf(runId));
    const fd = file.fd;
    let prefix = '';
    if (!file.measured) {
      // First write from this process: an earlier one that crashed mid-line must not swallow ours.
      const tail = tailOfNow(fd);
      file.bytes = tail.size;
      if (!tail.endsWithNewline) prefix = '\n';
      // A cut line is no line: ours chain from the last one that verifies, as the reader checks them.
      if (file.runKey) file.lastMac = file.bytes === 0 ? '' : ((await this.options.signing?.chainTail(runId, file.bytes)) ?? '');
      file.measured = true;
    }
    const text = this.textOf(file, lines);
    if (text !== '' || prefix !== '') file.bytes += appendTextNow(fd, prefix + text);
    if (sync) await fsyncOf(fd);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed, or a close that failed: nothing more can be done with it.
  }
}
