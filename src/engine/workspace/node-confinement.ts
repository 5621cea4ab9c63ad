import { closeSync, constants, openSync, readlinkSync, realpathSync } from 'node:fs';
import { lstat, readlink, realpath } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { WorkspaceError } from '../errors.js';
import { isInside, outsideWorkspace, toWorkspacePath } from './paths.js';
import { type PolicyMatcher } from './policy.js';
import { type RealPath } from './workspace.js';

/**
 * Reading never waits for a writer (a FIFO opens at once, and is then refused as not a regular file) and
 * never follows a link at the end of a path already resolved.
 */
const readFlags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/** Where an open file really is, as the kernel sees it (Linux); undefined without /proc. */
function openedPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** Links followed in a row before giving up, as the kernel's ELOOP limit does. */
const maxLinkHops = 40;

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
    return this.resolveExistingNow(relative);
  }

  private resolveExistingNow(relative: string): string | null {
    const lexical = this.absolute(relative);
    let real: string;
    try {
      real = realPathNow(lexical);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    if (!isInside(this.realRoot, real)) throw outsideWorkspace(relative, this.root);
    return real;
  }

  /**
   * An existing entry opened for reading (a file descriptor the caller closes), or null when nothing is
   * there; throws `outside-workspace` when it lies outside. Resolved before anything is opened (a link to a
   * device must not be opened at all), then opened without following a link at its end (one swapped in
   * meanwhile is refused) and without waiting on a FIFO; on Linux the opened file itself is checked again
   * (`/proc/self/fd`), so no link swapped into a folder along the path meanwhile can send the read
   * elsewhere. Asked in this thread, as `realPathNow` is: an open is a few microseconds, a round trip
   * through the thread pool several times that.
   */
  openExisting(relative: string): { fd: number; real: string } | null {
    const real = this.resolveExistingNow(relative);
    if (real === null) return null;
    const fd = openForReading(real, relative);
    if (fd === null) return null;
    if (process.platform === 'linux' && !isInside(this.realRoot, openedPath(fd) ?? real)) {
      closeSync(fd);
      throw outsideWorkspace(relative, this.root);
    }
    return { fd, real };
  }

  /**
   * `openExisting` for a real path (workspace-relative, under the root's real path) the caller resolved
   * and judged a moment ago: on Linux it is opened as it is, without asking the disk where it leads again
   * (a `realpath` is a system call per folder along it, and a `Read` had two), when the open file is
   * exactly that path (`/proc/self/fd`). When it is not (a link swapped in along it meanwhile, a file
   * system that ignores case and names it otherwise), it is closed and resolved again as any path is, as
   * every read was before; elsewhere too.
   */
  openResolved(realRelative: string): { fd: number; real: string } | null {
    if (process.platform !== 'linux') return this.openExisting(realRelative);
    const real = realRelative === '' ? this.realRoot : nodePath.join(this.realRoot, realRelative);
    const fd = openForReading(real, realRelative);
    if (fd === null) return null;
    const opened = openedPath(fd);
    if (opened !== real) {
      // Another file than the one resolved, or no /proc to tell: resolved again, as any path.
      closeSync(fd);
      return this.openExisting(realRelative);
    }
    return { fd, real };
  }

  /**
   * Where `relative` leads on disk, workspace-relative: every symbolic link along it followed; for a path
   * that does not exist, its nearest existing ancestor's real path plus the rest; a dangling link followed
   * to where its target would be (`dangling` says so). Throws `outside-workspace` when that is outside.
   */
  async resolveReal(relative: string): Promise<RealPath> {
    let resolved: { absolute: string; dangling: boolean };
    try {
      resolved = await followLinks(this.absolute(relative), 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
        throw new WorkspaceError('invalid', `${relative} goes through a loop of symbolic links.`, relative);
      }
      throw error;
    }
    if (!isInside(this.realRoot, resolved.absolute)) {
      throw new WorkspaceError(
        'outside-workspace',
        `${relative} is (or lies under) a symbolic link that leads outside the workspace (${this.root}). Only files inside the workspace can be read or edited.`,
        relative,
      );
    }
    return { path: this.toRealRelative(resolved.absolute), dangling: resolved.dangling };
  }

  /** The workspace-relative POSIX form of a real path inside the root's real path. */
  toRealRelative(real: string): string {
    return nodePath.relative(this.realRoot, real).split(nodePath.sep).join('/');
  }

  /**
   * `resolveForWrite` for a file that must not be version-control internals, by its typed name or by
   * where it really leads (`hooks/pre-push` with `hooks -> .git/hooks`). Throws `read-only` for those.
   */
  async resolveWritable(relative: string, matcher: PolicyMatcher): Promise<string> {
    if (matcher.isProtected(relative)) {
      throw new WorkspaceError('read-only', `${relative} is version-control internals and is never written.`, relative);
    }
    const target = await this.resolveForWrite(relative);
    const real = this.toRealRelative(target);
    if (matcher.isProtected(real)) {
      throw new WorkspaceError(
        'read-only',
        `${relative} leads through a symbolic link to ${real}, which is version-control internals and is never written.`,
        relative,
      );
    }
    return target;
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
      throw new WorkspaceError(
        'outside-workspace',
        `${relative} is a symbolic link whose target does not exist; it is not written through.`,
        relative,
      );
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

/**
 * The real path `lexical` (absolute) leads to, also when it does not exist: the existing part through
 * `realpath`, a dangling link through its target (`dangling` then), the missing rest appended as named.
 */
async function followLinks(lexical: string, hops: number): Promise<{ absolute: string; dangling: boolean }> {
  try {
    return { absolute: realPathNow(lexical), dangling: false };
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const parent = nodePath.dirname(lexical);
  if (parent === lexical) return { absolute: lexical, dangling: false };
  const linkTarget = await readlink(lexical).catch(() => null);
  const realParent = await followLinks(parent, hops);
  if (linkTarget === null)
    return { absolute: nodePath.join(realParent.absolute, nodePath.basename(lexical)), dangling: realParent.dangling };
  if (hops >= maxLinkHops) throw Object.assign(new Error(`too many symbolic links at ${lexical}`), { code: 'ELOOP' });
  const next = await followLinks(nodePath.resolve(realParent.absolute, linkTarget), hops + 1);
  return { absolute: next.absolute, dangling: true };
}

/**
 * The kernel's answer for where `absolute` leads, asked in this thread: about 5-10 µs on a local disk,
 * where a round trip through libuv's thread pool costs 20-30 µs of this thread's CPU on a virtual
 * machine (it wakes a worker) and a wait behind whatever else is queued there (B2 in
 * docs/performance.md: a `Read` asks twice). A stalled network mount would hold this thread for as long
 * as it stalls; through the pool it would hold one of its four threads and, behind them, every other
 * file operation of the extension host just the same.
 */
function realPathNow(absolute: string): string {
  return realpathSync.native(absolute);
}

/** `real` opened with `readFlags`, or null when nothing is there; `relative` names it in the refusal of a link. */
function openForReading(real: string, relative: string): number | null {
  try {
    return openSync(real, readFlags);
  } catch (error) {
    if (isMissing(error)) return null;
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new WorkspaceError('conflict', `${relative} became a symbolic link while it was being read; nothing was read.`, relative);
    }
    throw error;
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
