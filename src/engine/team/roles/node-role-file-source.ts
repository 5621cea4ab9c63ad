import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type RoleFileSource } from './role-file-source.js';

/** Role files on the local disk under `root` (the workspace root). */
export class NodeRoleFileSource implements RoleFileSource {
  constructor(readonly root: string) {}

  async list(directory: string): Promise<string[]> {
    try {
      const entries = await readdir(this.resolve(directory), { withFileTypes: true });
      return entries.filter((entry) => entry.isFile() || entry.isSymbolicLink()).map((entry) => entry.name).sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // No directory means no roles in that format, which is the usual case.
      if (code === 'ENOENT' || code === 'ENOTDIR') return [];
      throw error;
    }
  }

  read(relativePath: string): Promise<string> {
    return readFile(this.resolve(relativePath), 'utf8');
  }

  private resolve(relativePath: string): string {
    return path.join(this.root, ...relativePath.split('/'));
  }
}
