import { realpathSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { WorkspaceError } from '../errors.js';
import { isInside, outsideWorkspace, toWorkspacePath } from './paths.js';

/**
 * Keeps every file operation inside the workspace on a real file system. Lexical escapes (`..`, absolute
 * paths elsewhere) are refused by `toWorkspacePath`; this adds the symlink check: whatever a path
 * resolves to on disk (`realpath`) must lie inside the root's own real path.
 */
export class NodeConfinement {
  readonly root: string;
  private readonly realRoot: string;

  constructor(root: string) {
    this.root = nodePath.resolve(root);
    try {
      this.realRoot = realpathSync(this.root);
    } catch {
      throw new WorkspaceError('not-found', `The workspace folder ${this.root} does not exist.`, this.root);
    }
  }

  toRelative(input: string): string {
    return toWorkspacePath(this.root, input);
  }

  absolute(relative: string): string {
    return nodePath.join(this.root, relative);
  }

  /** The real path of an existing entry (inside the root), or null when nothing is there. */
  async resolveExisting(relative: string): Promise<string | null> {
    const lexical = this.absolute(relative);
    let real: string;
    try {
      real = await realpath(lexical);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    if (!isInside(this.realRoot, real)) throw outsideWorkspace(relative, this.root);
    return real;
  }

  /**
   * Where writing `relative` really writes: the existing file's real path, or, for a new file, the path
   * under the nearest existing ancestor's real path. A dangling symlink is refused: its target could be
   * anywhere.
   */
  async resolveForWrite(relative: string): Promise<string> {
    if (relative === '') throw new WorkspaceError('invalid', 'The workspace root is a directory, not a file.', relative);
    const existing = await this.resolveExisting(relative);
    if (existing !== null) return existing;
    const lexical = this.absolute(relative);
    if (await isSymlink(lexical)) {
      throw new WorkspaceError('outside-workspace', `${relative} is a symbolic link whose target does not exist; it is not written through.`, relative);
    }
    const missing: string[] = [nodePath.basename(lexical)];
    let ancestor = nodePath.dirname(lexical);
    for (;;) {
      let real: string | undefined;
      try {
        real = await realpath(ancestor);
      } catch (error) {
        if (!isMissing(error)) throw error;
        if (await isSymlink(ancestor)) {
          throw new WorkspaceError('outside-workspace', `${relative} lies under a symbolic link whose target does not exist.`, relative);
        }
      }
      if (real !== undefined) {
        if (!isInside(this.realRoot, real)) throw outsideWorkspace(relative, this.root);
        return nodePath.join(real, ...missing);
      }
      missing.unshift(nodePath.basename(ancestor));
      ancestor = nodePath.dirname(ancestor);
    }
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
