import { constants } from 'node:fs';
import { open, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '../workspace/text-file.js';
import { isInside } from '../workspace/paths.js';
import { type RoleFileSource } from './role-file-source.js';

/** The largest role file read; a role's instruction is prose, not a data file. Default: 256 KiB. */
export const maxRoleFileBytes = 256 * 1024;

// O_NONBLOCK so that opening a FIFO returns at once instead of waiting for a writer.
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Role files on the local disk under `root` (the workspace root). A role file is an instruction to the
 * agents, so only a regular file inside the workspace is read: a symbolic link leading out of it, a
 * FIFO or a device (`/dev/zero`) is refused with a message saying why, which becomes the file's role
 * diagnostic, and the read is capped at `maxRoleFileBytes`.
 */
export class NodeRoleFileSource implements RoleFileSource {
  constructor(
    readonly root: string,
    private readonly maxBytes = maxRoleFileBytes,
  ) {}

  async list(directory: string): Promise<string[]> {
    try {
      const entries = await readdir(this.resolve(directory), { withFileTypes: true });
      // Everything but directories: a link or a FIFO named like a role file gets a diagnostic from `read`.
      return entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name).sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // No directory means no roles in that format, which is the usual case.
      if (code === 'ENOENT' || code === 'ENOTDIR') return [];
      throw error;
    }
  }

  async read(relativePath: string): Promise<string> {
    const real = await realpath(this.resolve(relativePath));
    if (!isInside(await realpath(this.root), real)) {
      throw new Error('it is (or lies under) a symbolic link that leads outside the workspace; role files are read only from inside it');
    }
    const file = await open(real, openFlags);
    try {
      const info = await file.stat();
      if (!info.isFile()) throw new Error(`it is not a regular file (${kindOf(info)}), so it is not read`);
      if (info.size > this.maxBytes) throw tooLarge(info.size, this.maxBytes);
      // Read at most one byte past the cap: a file that grows while it is read cannot make this unbounded.
      const buffer = Buffer.alloc(this.maxBytes + 1);
      let filled = 0;
      for (;;) {
        const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
        if (filled > this.maxBytes) throw new Error(`it grew past the ${formatBytes(this.maxBytes)} limit for a role file while it was read, so it is not read`);
      }
      return buffer.subarray(0, filled).toString('utf8');
    } finally {
      await file.close();
    }
  }

  private resolve(relativePath: string): string {
    return path.join(this.root, ...relativePath.split('/'));
  }
}

function tooLarge(size: number, limit: number): Error {
  return new Error(`it is ${formatBytes(size)}, over the ${formatBytes(limit)} limit for a role file, so it is not read`);
}

function kindOf(info: { isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean; isDirectory(): boolean }): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  if (info.isDirectory()) return 'a directory';
  return 'not a file';
}
