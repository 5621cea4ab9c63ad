import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { ConfinedFileReader } from '../workspace/confined-file-reader.js';
import { formatBytes } from '../workspace/text-file.js';
import { type RoleFileSource } from './role-file-source.js';

/** The largest role file read; a role's instruction is prose, not a data file. Default: 256 KiB. */
export const maxRoleFileBytes = 256 * 1024;

/**
 * Role files on the local disk under `root` (the workspace root, or the user's home for their own roles).
 * A role file is an instruction to the agents, so it is read through the one confined reader
 * (../workspace/confined-file-reader.ts), by the same rules as `Read`: a symbolic link leading out of the
 * folder or to a secret (`.env`, a key, `.git/`, the run history, an ignored file), a FIFO or a device
 * (`/dev/zero`) is refused with a message saying why (the rule, never the content), which becomes the
 * file's role diagnostic, and the read is capped at `maxRoleFileBytes`.
 */
export class NodeRoleFileSource implements RoleFileSource {
  private readonly reader: ConfinedFileReader;

  constructor(
    readonly root: string,
    private readonly maxBytes = maxRoleFileBytes,
  ) {
    // The CLI and the extension read the user's own roles from their home with a second source.
    const isHome = path.resolve(root) === path.resolve(homedir());
    this.reader = new ConfinedFileReader(root, isHome ? { folderName: 'your home folder', refuseLinksToIgnored: false } : {});
  }

  async list(directory: string): Promise<string[]> {
    try {
      const entries = await readdir(this.resolve(directory), { withFileTypes: true });
      // Everything but directories: a link or a FIFO named like a role file gets a diagnostic from `read`.
      return entries
        .filter((entry) => !entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // No directory means no roles in that format, which is the usual case.
      if (code === 'ENOENT' || code === 'ENOTDIR') return [];
      throw error;
    }
  }

  async read(relativePath: string): Promise<string> {
    const outcome = await this.reader.read(relativePath, this.maxBytes);
    if (outcome === undefined) throw Object.assign(new Error('there is no such file'), { code: 'ENOENT' });
    if ('refused' in outcome) throw new Error(outcome.refused);
    const { read } = outcome;
    if (read.size > this.maxBytes) throw tooLarge(read.size, this.maxBytes);
    if (read.cut)
      throw new Error(`it grew past the ${formatBytes(this.maxBytes)} limit for a role file while it was read, so it is not read`);
    return read.text;
  }

  private resolve(relativePath: string): string {
    return path.join(this.root, ...relativePath.split('/'));
  }
}

function tooLarge(size: number, limit: number): Error {
  return new Error(`it is ${formatBytes(size)}, over the ${formatBytes(limit)} limit for a role file, so it is not read`);
}
