/**
 * Reads a run log's lines as a stream (the file opened by json-lines-file.ts), so reading one run never
 * holds more than one line and a chunk in memory beyond what the caller keeps.
 */
import type { FileHandle } from 'node:fs/promises';
import { maxLineBytes } from './run-log-records.js';

const chunkBytes = 64 * 1024;
/**
 * Sliced, the chunks are larger: each read is a round trip through libuv's thread pool, which a loaded
 * machine makes wait (the index of 10,000 runs, 2 MB, is 32 reads at 64 KiB). Under `maxLineBytes`, so a
 * line whole in a chunk is never too long.
 */
const slicedChunkBytes = 1024 * 1024;
const newline = 0x0a;

/** What the line reader tells its caller besides the lines. */
export interface LineProblems {
  /** A line longer than `maxLineBytes` (its start is not kept; the line is skipped). */
  tooLong(lineNumber: number): void;
  /** The last line has no trailing newline: a write was cut short. */
  cutShort(lineNumber: number): void;
}

export interface ReadLinesOptions {
  /**
   * Decode the whole lines of each chunk in one piece and hand out slices of that text. Default false.
   * About twice as fast for many short lines (the index: 10,000 at every open, B14), but a line kept is a
   * view of its chunk's text and keeps all of it (up to 1 MiB): only for a caller that keeps most lines anyway.
   */
  sliceChunks?: boolean;
}

/**
 * Calls `onLine` with each complete line (without its newline), numbered from 1. Empty lines are passed
 * over. Resolves with the bytes read. The bytes are split on newlines before decoding, so a multi-byte
 * character is never cut in two (a newline byte is never part of one: a run of whole lines decodes as
 * each line alone would).
 */
export async function readLines(
  handle: FileHandle,
  onLine: (line: string, lineNumber: number) => void,
  problems: LineProblems,
  options: ReadLinesOptions = {},
): Promise<{ bytes: number }> {
  const chunk = Buffer.alloc(options.sliceChunks ? slicedChunkBytes : chunkBytes);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overLong = false;
  let lineNumber = 1;
  let total = 0;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    total += bytesRead;
    const view = chunk.subarray(0, bytesRead);
    let start = 0;
    const last = options.sliceChunks ? view.lastIndexOf(newline) : -1;
    for (let end = view.indexOf(newline, 0); end !== -1; end = view.indexOf(newline, start)) {
      if (options.sliceChunks && pendingBytes === 0 && !overLong) {
        lineNumber = sliceLines(view.toString('utf8', start, last), lineNumber, onLine);
        start = last + 1;
        break;
      }
      if (overLong || pendingBytes + (end - start) > maxLineBytes) problems.tooLong(lineNumber);
      else if (pendingBytes + end > start) {
        // Most lines lie whole in the chunk: decoded in place, without a copy (B14 reads 10,000 at open).
        const line =
          pending.length === 0
            ? view.toString('utf8', start, end)
            : Buffer.concat([...pending, view.subarray(start, end)]).toString('utf8');
        onLine(line, lineNumber);
      }
      pending = [];
      pendingBytes = 0;
      overLong = false;
      lineNumber++;
      start = end + 1;
    }
    if (start < bytesRead && !overLong) {
      pendingBytes += bytesRead - start;
      // Past the cap the rest of the line is only counted, never kept.
      if (pendingBytes > maxLineBytes) {
        overLong = true;
        pending = [];
      } else pending.push(Buffer.from(view.subarray(start)));
    }
  }
  if (overLong) problems.tooLong(lineNumber);
  else if (pendingBytes > 0) problems.cutShort(lineNumber);
  return { bytes: total };
}

/** Hands out the lines of `text` (whole lines of one chunk, the last newline left off); returns the next line's number. */
function sliceLines(text: string, lineNumber: number, onLine: (line: string, lineNumber: number) => void): number {
  let from = 0;
  for (;;) {
    const end = text.indexOf('\n', from);
    const stop = end === -1 ? text.length : end;
    if (stop > from) onLine(text.slice(from, stop), lineNumber);
    lineNumber++;
    if (end === -1) return lineNumber;
    from = end + 1;
  }
}
