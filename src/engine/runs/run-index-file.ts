/**
 * The index file's lines and how the whole file is read and rewritten (run-index.ts keeps the index in
 * memory and appends). A line is a run's summary or a tombstone; the last line per run wins. A damaged
 * line is skipped with a warning naming it: the index is rebuilt from what is left, never refused whole.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../errors.js';
import { appendText, createExclusive, openForReading } from './json-lines-file.js';
import { readLines } from './json-lines-reader.js';
import { parseIndexLine } from './run-index-line.js';
import { type IndexEntry, readSummary, scanIndexLine } from './run-index-scan.js';

export type { RunSummary } from './run-index-line.js';

export const indexFileName = 'index.jsonl';

export function tombstoneLine(runId: string): string {
  return JSON.stringify({ runId, removed: true });
}

export interface IndexFileContents {
  /** The last line per run, tombstoned runs left out, in the order of their last lines (as written: unread). */
  latest: Map<string, IndexEntry>;
  /** Lines in the file, damaged ones included: what a rewrite would save. */
  lines: number;
  /** True when the file was too large to read: a rewrite must not replace it with nothing. */
  refused?: boolean;
}

/**
 * An index larger than this is not read (its summaries would all be held in memory): a history keeps a
 * line of a few hundred bytes per run, and rewrites the file once stale lines outnumber live ones.
 */
const maxIndexBytes = 256 * 1024 * 1024;

/** Reads the index file; an absent or unreadable one (warned) is empty. */
export async function readIndexFile(filePath: string, warn: (message: string) => void): Promise<IndexFileContents> {
  const latest = new Map<string, IndexEntry>();
  let handle;
  try {
    handle = await openForReading(filePath);
  } catch (error) {
    warn(`Could not read the run index ${filePath}: ${errorMessage(error)}; runs it listed are not known until they are written again`);
    return { latest, lines: 0 };
  }
  if (!handle) return { latest, lines: 0 };
  const { size } = await handle.stat();
  if (size > maxIndexBytes) {
    await handle.close();
    warn(
      `The run index ${filePath} is ${(size / 1024 / 1024).toFixed(0)} MiB, more than any history keeps (planted?); it is not read, and runs it listed are not known until they are written again`,
    );
    return { latest, lines: 0, refused: true };
  }
  let lines = 0;
  try {
    await readLines(
      handle,
      (line, lineNumber) => {
        lines++;
        const summary = scanIndexLine(line) ?? parseIndexLine(line);
        if (summary === undefined) warn(`${indexFileName}: line ${lineNumber} is not a run index line; it was skipped`);
        else {
          latest.delete(summary.runId);
          if (!('removed' in summary)) latest.set(summary.runId, summary);
        }
      },
      {
        tooLong: (lineNumber) => {
          lines++;
          warn(`${indexFileName}: line ${lineNumber} is too long; it was skipped`);
        },
        cutShort: () => warn(`${indexFileName}: the last line was cut short (a crash while writing?); it was skipped`),
      },
      // Every line is kept (as an unread summary) or dropped at once: the chunks' texts are the index's size.
      { sliceChunks: true },
    );
  } finally {
    await handle.close();
  }
  return { latest, lines };
}

/**
 * The runs oldest first by `updatedAt`, equal times in the file's order (a stable sort): the map itself when
 * the file lists them so, as it does unless processes with different clocks wrote it.
 */
export function inTimeOrder(latest: Map<string, IndexEntry>): Map<string, IndexEntry> {
  let previous = -Infinity;
  for (const summary of latest.values()) {
    if (summary.updatedAt < previous)
      return new Map([...latest.values()].sort((a, b) => a.updatedAt - b.updatedAt).map((run) => [run.runId, run]));
    previous = summary.updatedAt;
  }
  return latest;
}

/** Replaces the file with these lines: written to a temp file beside it, fsynced, renamed over it. */
export async function rewriteIndexFile(filePath: string, summaries: Iterable<IndexEntry>): Promise<void> {
  const temporary = path.join(path.dirname(filePath), `.${indexFileName}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await createExclusive(temporary);
  try {
    await appendText(handle, [...summaries].map((summary) => `${JSON.stringify(readSummary(summary))}\n`).join(''));
    await handle.sync();
    await handle.close();
    await rename(temporary, filePath);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}
