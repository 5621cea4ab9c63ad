/**
 * Reading a file an agent's instructions or the engine's settings come from (a role file, AGENTS.md, a
 * settings file), once the confined reader (confined-file-reader.ts) opened and judged it: only a regular
 * file, never a FIFO or a device, and never more than `maxBytes` of it, however large it is or grows
 * while it is read.
 */
import { constants, fstat, read } from 'node:fs';
import { open } from 'node:fs/promises';
import { promisify } from 'node:util';

const statOpen = promisify(fstat);
const readOpen = promisify(read);

export interface BoundedText {
  /** The first `maxBytes` bytes at most, as UTF-8 (a character cut in two at the end is dropped). */
  text: string;
  /** The file's size when it was opened. */
  size: number;
  /** True when there was more than `maxBytes` to read (the file was larger, or grew while it was read). */
  cut: boolean;
}

/** At most `maxBytes` of the open file `fd` (the caller closes it); throws saying why when it is not a regular file. */
export async function readBoundedOpen(fd: number, maxBytes: number): Promise<BoundedText> {
  const info = await statOpen(fd);
  if (!info.isFile()) throw new Error(`it is not a regular file (${kindOf(info)}), so it is not read`);
  // One byte past the cap tells a file that is exactly the cap from one that is larger (or grew).
  const buffer = Buffer.alloc(maxBytes + 1);
  let filled = 0;
  for (;;) {
    const { bytesRead } = await readOpen(fd, buffer, filled, buffer.length - filled, filled);
    filled += bytesRead;
    if (bytesRead === 0 || filled === buffer.length) break;
  }
  const cut = filled > maxBytes;
  const text = buffer.subarray(0, Math.min(filled, maxBytes)).toString('utf8');
  return { text: cut ? text.replace(/\uFFFD$/, '') : text, size: info.size, cut };
}

// O_NONBLOCK: a FIFO opens at once instead of waiting for a writer; O_NOFOLLOW: a link at the end is refused.
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * At most `maxBytes` of the regular file at `filePath`, which must not be a link; throws saying why for
 * anything else. For files the engine keeps itself (its run files); a file of the repository is read with
 * the confined reader, which also judges where a path leads and what it may hold.
 */
export async function readBounded(filePath: string, maxBytes: number): Promise<BoundedText> {
  const file = await open(filePath, openFlags);
  try {
    return await readBoundedOpen(file.fd, maxBytes);
  } finally {
    await file.close();
  }
}

function kindOf(info: {
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
  isDirectory(): boolean;
}): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  if (info.isDirectory()) return 'a directory';
  return 'not a file';
}
