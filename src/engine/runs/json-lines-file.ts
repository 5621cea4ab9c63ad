/**
 * The file operations of the run log, in one place because each must be safe in a folder someone else may
 * have written (the CLI keeps its runs inside the user's repository): a symbolic link is never followed
 * (O_NOFOLLOW; on Windows, which has no such flag, the name is checked with lstat first), a FIFO never
 * blocks the open (O_NONBLOCK) and anything but a regular file is refused. Lines are read as a stream
 * (json-lines-reader.ts).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, writeSync } from 'node:fs';
import { type FileHandle, lstat, open } from 'node:fs/promises';
import { AgentTeamError } from '../errors.js';

const noFollow = constants.O_NOFOLLOW ?? 0;
const nonBlocking = constants.O_NONBLOCK ?? 0;
const newline = 0x0a;

/** Thrown for a name that is a link or not a regular file: `code` says which. */
export class UnsafeFileError extends AgentTeamError {
  override readonly name: string = 'UnsafeFileError';
  constructor(
    readonly filePath: string,
    readonly code: 'link' | 'not-a-file',
  ) {
    super(code === 'link' ? `${filePath} is a symbolic link; it is neither read nor written through` : `${filePath} is not a regular file`);
  }
}

async function openSafely(filePath: string, flags: number, mode?: number): Promise<FileHandle> {
  if (noFollow === 0 && (await lstat(filePath).catch(() => undefined))?.isSymbolicLink()) throw new UnsafeFileError(filePath, 'link');
  let handle: FileHandle;
  try {
    handle = await open(filePath, flags | noFollow | nonBlocking, mode);
  } catch (error) {
    // ELOOP: the last component is a link (Linux, macOS); EMLINK on some BSDs.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new UnsafeFileError(filePath, 'link');
    throw error;
  }
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw new UnsafeFileError(filePath, 'not-a-file');
  }
  return handle;
}

/**
 * `openForAppend` in this thread, as a file descriptor: a run file's first write no longer waits for three
 * round trips through libuv's pool (open, fstat, the last byte), so what the run holds goes to disk, and
 * leaves the heap, in the turn that wrote it (B6 in docs/performance.md). Same checks: no link followed,
 * no FIFO waited on, a regular file only.
 */
export function openForAppendNow(filePath: string): number {
  if (noFollow === 0 && lstatSync(filePath, { throwIfNoEntry: false })?.isSymbolicLink()) throw new UnsafeFileError(filePath, 'link');
  let fd: number;
  try {
    fd = openSync(filePath, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | noFollow | nonBlocking, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new UnsafeFileError(filePath, 'link');
    throw error;
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new UnsafeFileError(filePath, 'not-a-file');
  }
  return fd;
}

/** `endsWithNewline` of a descriptor, in this thread; also gives the file's size. */
export function tailOfNow(fd: number): { size: number; endsWithNewline: boolean } {
  const { size } = fstatSync(fd);
  if (size === 0) return { size, endsWithNewline: true };
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return { size, endsWithNewline: last[0] === newline };
}

/** Opens for appending (created 0600 if absent); readable too, so its last byte can be checked. */
export function openForAppend(filePath: string): Promise<FileHandle> {
  return openSafely(filePath, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
}

/** Creates a new file that must not exist yet (a temp file for a rewrite). */
export function createExclusive(filePath: string): Promise<FileHandle> {
  return openSafely(filePath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
}

/** Opens for reading; undefined when there is no such file. */
export async function openForReading(filePath: string): Promise<FileHandle | undefined> {
  try {
    return await openSafely(filePath, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Appends `text` in one write call (the handle is O_APPEND: the offset is the end, whoever else appends). */
export async function appendText(handle: FileHandle, text: string): Promise<number> {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  // A regular file takes the whole write at once; the loop only covers a short write (a full disk).
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
    if (bytesWritten === 0) throw new Error('the disk took no more bytes');
    written += bytesWritten;
  }
  return bytes.length;
}

/**
 * `appendText` now, in this turn of the event loop: what the caller does next (send the model its next
 * request) happens only once the line is in the file. One write call, handed the string itself: making a
 * Buffer of it first cost three to four times as much for the megabytes of a proposal's record, on the
 * event loop the extension host shares with the editor (B15 in docs/performance.md). `bytes`: the text's
 * UTF-8 length, when the caller knows it.
 */
export function appendTextNow(fd: number, text: string, bytes = Buffer.byteLength(text, 'utf8')): number {
  const first = writeSync(fd, text, null, 'utf8');
  if (first === bytes) return bytes;
  // A short write (a full disk): the rest from the text's bytes, until the disk takes no more.
  const encoded = Buffer.from(text, 'utf8');
  let written = first;
  while (written < encoded.length) {
    const count = writeSync(fd, encoded, written, encoded.length - written);
    if (count === 0) throw new Error('the disk took no more bytes');
    written += count;
  }
  return encoded.length;
}

/** True when the file is empty or ends with a newline (the next append starts a line of its own). */
export async function endsWithNewline(handle: FileHandle): Promise<boolean> {
  const { size } = await handle.stat();
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === newline;
}
