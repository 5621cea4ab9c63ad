/**
 * Reading a file an agent's instructions come from (a role file, AGENTS.md): only a regular file, never
 * a FIFO or a device, and never more than `maxBytes` of it, however large it is or grows while it is read.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

// O_NONBLOCK so that opening a FIFO returns at once instead of waiting for a writer.
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export interface BoundedText {
  /** The first `maxBytes` bytes at most, as UTF-8 (a character cut in two at the end is dropped). */
  text: string;
  /** The file's size when it was opened. */
  size: number;
  /** True when there was more than `maxBytes` to read (the file was larger, or grew while it was read). */
  cut: boolean;
}

/** Reads at most `maxBytes` of the regular file at `filePath`; throws saying why for anything else. */
export async function readBounded(filePath: string, maxBytes: number): Promise<BoundedText> {
  const file = await open(filePath, openFlags);
  try {
    const info = await file.stat();
    if (!info.isFile()) throw new Error(`it is not a regular file (${kindOf(info)}), so it is not read`);
    // One byte past the cap tells a file that is exactly the cap from one that is larger.
    const buffer = Buffer.alloc(maxBytes + 1);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, filled);
      filled += bytesRead;
      if (bytesRead === 0 || filled === buffer.length) break;
    }
    const cut = filled > maxBytes;
    const text = buffer.subarray(0, Math.min(filled, maxBytes)).toString('utf8');
    return { text: cut ? text.replace(/\uFFFD$/, '') : text, size: info.size, cut };
  } finally {
    await file.close();
  }
}

function kindOf(info: { isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean; isDirectory(): boolean }): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  if (info.isDirectory()) return 'a directory';
  return 'not a file';
}
