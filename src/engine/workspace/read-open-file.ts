import { read, readSync } from 'node:fs';
import { promisify } from 'node:util';
import { throwIfStopped } from '../abort.js';

const readThroughPool = promisify(read);

/**
 * Below this size a file is read in this thread. From the page cache that takes a few microseconds, where
 * each round trip through libuv's thread pool costs 20-30 µs of this thread's CPU on a virtual machine
 * (it wakes a worker), and a `Read` through the pool made seven of them (B2 in docs/performance.md). Larger
 * files go through the pool, so a 10 MB read never holds the event loop.
 */
export const readInThreadBytes = 256 * 1024;

/**
 * The whole content of an open regular file (`fd`) whose size was just read from it: one read when it
 * still has that size (the buffer holds one byte more, so the end shows at once), more when it grew.
 * Returns null, having read no more than `limit + 1` bytes, when it grew past `limit` meanwhile.
 */
export async function readOpenFile(fd: number, size: number, limit: number, signal?: AbortSignal): Promise<Buffer | null> {
  const inThread = size < readInThreadBytes;
  let buffer = Buffer.allocUnsafe(Math.min(size, limit) + 1);
  let filled = 0;
  for (;;) {
    throwIfStopped(signal);
    const length = buffer.length - filled;
    const bytesRead = inThread
      ? readSync(fd, buffer, filled, length, filled)
      : (await readThroughPool(fd, buffer, filled, length, filled)).bytesRead;
    if (bytesRead === 0) return buffer.subarray(0, filled);
    filled += bytesRead;
    if (filled < buffer.length) continue;
    if (filled > limit) return null;
    // It grew while it was read: room for more, still one byte past the limit at most.
    const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1));
    buffer.copy(larger, 0, 0, filled);
    buffer = larger;
  }
}
