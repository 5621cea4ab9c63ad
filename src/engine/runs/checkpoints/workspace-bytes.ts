/**
 * The disk side of checkpoints: a workspace file's exact bytes read, written back and deleted, by the
 * workspace's confinement (node-confinement.ts), whoever asks (the CLI, the extension host: both run on
 * Node over the same disk). A path a run log names is taken as untrusted: one that leads out of the
 * workspace, through a link or lexically (`../`), is refused; version-control internals (`.git/**`) are
 * never written; nothing is opened through a link swapped in at the end of the path, and a FIFO or a
 * device is neither read nor written (opened without blocking, then checked to be a regular file).
 */
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { lstat, mkdir, unlink } from 'node:fs/promises';
import nodePath from 'node:path';
import { createHash } from 'node:crypto';
import { WorkspaceError } from '../../errors.js';
import { NodeConfinement } from '../../workspace/node-confinement.js';
import { defaultWorkspacePolicy, policyMatcher, type PolicyMatcher, type WorkspacePolicy } from '../../workspace/policy.js';
import { type ContentDigest, maxKeptBytes } from './stored-content.js';

/** A file as read: its digest, and its bytes unless there were more than the limit. */
export interface FileBytes {
  digest: ContentDigest;
  content: Buffer | undefined;
}

const writeFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0);
const chunkBytes = 1024 * 1024;

export class WorkspaceBytes {
  private readonly confinement: NodeConfinement;
  private readonly matcher: PolicyMatcher;

  /** `policy`: which paths are version-control internals (never written). Default: `defaultWorkspacePolicy`. */
  constructor(root: string, policy: WorkspacePolicy = defaultWorkspacePolicy) {
    this.confinement = new NodeConfinement(root);
    this.matcher = policyMatcher(policy);
  }

  /** The workspace-relative form of `path`; throws `outside-workspace` for one that leaves the root. */
  relative(path: string): string {
    return this.confinement.toRelative(path);
  }

  /** The file's bytes (only its digest past `limit`, default `maxKeptBytes`), or null when there is none. */
  read(path: string, limit = maxKeptBytes): FileBytes | null {
    const relative = this.relative(path);
    const opened = this.confinement.openExisting(relative);
    if (opened === null) return null;
    try {
      if (!fstatSync(opened.fd).isFile()) throw new WorkspaceError('invalid', `${relative} is not a regular file.`, relative);
      const hash = createHash('sha256');
      const chunks: Buffer[] = [];
      let total = 0;
      for (;;) {
        const chunk = Buffer.alloc(chunkBytes);
        const read = readSync(opened.fd, chunk, 0, chunkBytes, null);
        if (read === 0) break;
        hash.update(chunk.subarray(0, read));
        total += read;
        if (total <= limit) chunks.push(chunk.subarray(0, read));
        else chunks.length = 0;
      }
      return { digest: { bytes: total, sha256: hash.digest('hex') }, content: total <= limit ? Buffer.concat(chunks) : undefined };
    } finally {
      closeSync(opened.fd);
    }
  }

  /** Writes `content` as the whole file (creating its folders); an existing file keeps its mode. */
  async write(path: string, content: Buffer): Promise<void> {
    const relative = this.relative(path);
    const target = await this.confinement.resolveWritable(relative, this.matcher);
    await mkdir(nodePath.dirname(target), { recursive: true });
    let descriptor: number;
    try {
      descriptor = openSync(target, writeFlags, 0o644);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP')
        throw new WorkspaceError('conflict', `${relative} became a symbolic link; nothing was written through it.`, relative);
      if (code === 'ENXIO' || code === 'EISDIR')
        throw new WorkspaceError('invalid', `${relative} is not a regular file; nothing was written.`, relative);
      throw error;
    }
    try {
      if (!fstatSync(descriptor).isFile())
        throw new WorkspaceError('invalid', `${relative} is not a regular file; nothing was written.`, relative);
      ftruncateSync(descriptor, 0);
      for (let offset = 0; offset < content.length;) offset += writeSync(descriptor, content, offset, content.length - offset, offset);
    } finally {
      closeSync(descriptor);
    }
  }

  /** Deletes the file (where its path really leads, inside the workspace); nothing there is fine. */
  async remove(path: string): Promise<void> {
    const relative = this.relative(path);
    if (this.matcher.isProtected(relative))
      throw new WorkspaceError('read-only', `${relative} is version-control internals and is never written.`, relative);
    const real = await this.confinement.resolveExisting(relative);
    if (real === null) return;
    if (this.matcher.isProtected(this.confinement.toRealRelative(real)))
      throw new WorkspaceError('read-only', `${relative} leads to version-control internals, which are never written.`, relative);
    if (!(await lstat(real)).isFile())
      throw new WorkspaceError('invalid', `${relative} is not a regular file; it was not deleted.`, relative);
    await unlink(real);
  }
}
