import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '../workspace/text-file.js';
import { isInside } from '../workspace/paths.js';
import { readBounded } from '../workspace/bounded-read.js';
import { type RoleFileSource } from './role-file-source.js';

/** The largest role file read; a role's instruction is prose, not a data file. Default: 256 KiB. */
export const maxRoleFileBytes = 256 * 1024;

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
    const read = await readBounded(real, this.maxBytes);
    if (read.size > this.maxBytes) throw tooLarge(read.size, this.maxBytes);
    if (read.cut) throw new Error(`it grew past the ${formatBytes(this.maxBytes)} limit for a role file while it was read, so it is not read`);
    return read.text;
  }

  private resolve(relativePath: string): string {
    return path.join(this.root, ...relativePath.split('/'));
  }
}

function tooLarge(size: number, limit: number): Error {
  return new Error(`it is ${formatBytes(size)}, over the ${formatBytes(limit)} limit for a role file, so it is not read`);
}
