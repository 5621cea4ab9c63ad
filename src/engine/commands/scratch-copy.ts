/**
 * One scratch copy of the workspace (scratch-copy-creation.ts makes it), brought to a task's view before
 * each command and told apart from it afterwards.
 *
 * The copy's index holds the workspace as copied, so one `git status` lists everything that differs from
 * it: the proposals written for the last command and whatever that command changed. Before a command,
 * what the new task should not see is put back (from the index, or deleted) and its proposals are
 * written; after it, the files that differ from both the index and the proposals are the ones the command
 * changed. That status is kept for the next preparation, so a later command costs one `git status` and
 * the files that really change, not a walk of the tree.
 */
import { copyFile, lstat, mkdir, readFile, realpath, rm, rmdir, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { type Git, splitNul } from './git-runner.js';
import { createScratchLayout, type ScratchLayout } from './scratch-copy-creation.js';
import type { CommandCopy } from './command-copy.js';
import type { CommandLaunch } from './sandbox/command-launch.js';
import type { ProposedFile } from '../file-tools/task-tools.js';

interface StatusEntry {
  path: string;
  /** Not in the index: created by a command (or a new file a proposal wrote). */
  untracked: boolean;
}

export class ScratchCopy implements CommandCopy {
  /** What was last written for proposals, by path under the copy's top. */
  private written = new Map<string, string>();
  /** The content, as copied, of files proposals were written over: putting them back needs no git. */
  private readonly originals = new Map<string, Buffer>();
  /** The status after the last command, still true when nothing has touched the copy since. */
  private knownStatus: StatusEntry[] | undefined;
  private indexFingerprint = '';
  private realTop = '';

  private constructor(
    private readonly layout: ScratchLayout,
    private readonly git: Git,
  ) {}

  /** `git`: the host's runner (createGitRunner over its environment). */
  static async create(workspaceRoot: string, directory: string, git: Git): Promise<ScratchCopy> {
    const copy = new ScratchCopy(await createScratchLayout(workspaceRoot, directory, git), git);
    copy.realTop = await realpath(copy.layout.workTop);
    copy.indexFingerprint = await fingerprint(copy.layout.indexPath);
    return copy;
  }

  get kind(): ScratchLayout['kind'] {
    return this.layout.kind;
  }

  /** The directory commands run in: the workspace's place in the copy. */
  get cwd(): string {
    return join(this.layout.workTop, this.layout.prefix);
  }

  /** What the OS sandbox lets a command in this copy touch: the copy itself, and what it reads outside it. */
  get sandboxPaths(): { writable: string[]; readOnly: string[] } {
    return { writable: [this.layout.root], readOnly: this.layout.readOutside };
  }

  /** Dependency folders linked from the user's folder, workspace-relative. */
  get linked(): string[] {
    return this.layout.linked.map((path) => this.toWorkspacePath(path));
  }

  /** The command runs in the copy as it is on disk: nothing to add. */
  launch(launch: CommandLaunch): CommandLaunch {
    return launch;
  }

  /** Brings the copy to the workspace as copied plus `proposals`, whatever the last command did. */
  async prepare(proposals: readonly ProposedFile[], signal?: AbortSignal): Promise<void> {
    const wanted = new Map(proposals.map((file) => [this.layout.prefix + file.path, file.content]));
    const repaired = await this.repairRepository();
    const status = !repaired && this.knownStatus ? this.knownStatus : await this.status(signal);
    this.knownStatus = undefined;
    const linked = new Set(this.layout.linked);
    const dirty = new Set(status.map((entry) => entry.path));
    const restore: string[] = [];
    for (const entry of status) {
      if (wanted.has(entry.path) || linked.has(entry.path)) continue;
      const original = this.originals.get(entry.path);
      if (entry.untracked) await this.removeCreated(entry.path);
      // A file only a proposal changed is put back from memory: no git process for the common case.
      else if (original !== undefined && (await lstat(this.absolute(entry.path)).catch(() => undefined))?.isFile())
        await writeFile(this.absolute(entry.path), original);
      else restore.push(entry.path);
    }
    if (restore.length > 0)
      await this.git(['checkout-index', '-f', '-q', '-z', '--stdin'], {
        cwd: this.layout.workTop,
        environment: this.layout.gitEnvironment,
        input: `${restore.join('\0')}\0`,
        ...(signal ? { signal } : {}),
      });
    for (const [path, content] of wanted) {
      const current = await readFile(this.absolute(path)).catch(() => undefined);
      if (current?.equals(Buffer.from(content, 'utf8'))) continue;
      // Not in the status: what is there is the copy as made, byte for byte, to put back later.
      if (current !== undefined && !dirty.has(path) && !this.originals.has(path)) this.originals.set(path, current);
      await this.writeInside(path, content);
    }
    this.written = wanted;
  }

  /**
   * The files the last command changed (workspace-relative, sorted): created, modified or deleted, other
   * than the proposals written for it. They stay until the next `prepare` puts the copy back.
   */
  async changedFiles(signal?: AbortSignal): Promise<string[]> {
    await this.repairRepository();
    const status = await this.status(signal);
    this.knownStatus = status;
    const changed: string[] = [];
    const linked = new Set(this.layout.linked);
    for (const entry of status) {
      if (linked.has(entry.path)) continue;
      const proposed = this.written.get(entry.path);
      if (proposed !== undefined && (await readFile(this.absolute(entry.path), 'utf8').catch(() => undefined)) === proposed) continue;
      changed.push(this.toWorkspacePath(entry.path));
    }
    // A proposal equal to the copy's own content is not in the status; the command may have deleted it.
    for (const [path, content] of this.written) {
      if (status.some((entry) => entry.path === path)) continue;
      if ((await readFile(this.absolute(path), 'utf8').catch(() => undefined)) !== content) changed.push(this.toWorkspacePath(path));
    }
    return changed.sort();
  }

  changedFilePath(path: string): string {
    return join(this.cwd, ...path.split('/'));
  }

  async remove(): Promise<void> {
    await rm(this.layout.root, { recursive: true, force: true, maxRetries: 3 });
  }

  /**
   * A command that ran `git add`, `git commit` or `git checkout` in the copy moved its index or HEAD away
   * from the copy as made: both are put back, so "what differs" stays measured against the workspace.
   */
  private async repairRepository(): Promise<boolean> {
    const current = await fingerprint(this.layout.indexPath);
    const head =
      this.layout.kind === 'git'
        ? (await readFile(join(this.layout.workTop, '.git', 'HEAD'), 'utf8').catch(() => '')).trim()
        : this.layout.head;
    if (current === this.indexFingerprint && head === this.layout.head) return false;
    await copyFile(this.layout.baselineIndex, this.layout.indexPath);
    // With the baseline's own time, not now: git trusts an entry whose file is older than the index by
    // the second, so a file the command changed in the second the copy was made (same size, same inode)
    // would pass for unchanged under an index stamped later.
    const baseline = await stat(this.layout.baselineIndex);
    await utimes(this.layout.indexPath, baseline.atime, baseline.mtime);
    await this.git(['update-ref', '--no-deref', 'HEAD', this.layout.head], {
      cwd: this.layout.workTop,
      environment: this.layout.gitEnvironment,
    });
    this.indexFingerprint = await fingerprint(this.layout.indexPath);
    return true;
  }

  private async status(signal?: AbortSignal): Promise<StatusEntry[]> {
    const output = await this.git(
      ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignored=matching', '--no-renames', '--ignore-submodules=all'],
      {
        cwd: this.layout.workTop,
        // The copy's index may be refreshed (stat information only): later statuses then skip unchanged files.
        environment: { ...this.layout.gitEnvironment, GIT_OPTIONAL_LOCKS: '1' },
        ...(signal ? { signal } : {}),
      },
    );
    this.indexFingerprint = await fingerprint(this.layout.indexPath);
    const entries: StatusEntry[] = [];
    for (const record of splitNul(output)) {
      const code = record.slice(0, 2);
      const path = record.slice(3).replace(/\/$/, '');
      // Staged against HEAD but unchanged in the work tree: the workspace's own changes, as copied.
      if (code[1] === ' ') continue;
      entries.push({ path, untracked: code === '??' || code === '!!' });
    }
    return entries;
  }

  /** Removes a file a command created, and the folders it created for it once they are empty. */
  private async removeCreated(path: string): Promise<void> {
    await rm(this.absolute(path), { recursive: true, force: true });
    for (let folder = dirname(path); folder !== '.' && folder !== ''; folder = dirname(folder)) {
      // Fails on a folder that still holds something (or that was in the copy all along, with files): stop there.
      if (
        !(await rmdir(this.absolute(folder)).then(
          () => true,
          () => false,
        ))
      )
        break;
    }
  }

  /** Writes a proposal, refusing any path that a link would carry out of the copy (into the user's folder). */
  private async writeInside(path: string, content: string): Promise<void> {
    const target = this.absolute(path);
    // Checked on the nearest folder that exists before any is made: making folders through a link would
    // already create them in the user's folder.
    let nearest = dirname(target);
    while (!(await lstat(nearest).catch(() => undefined)) && nearest !== this.layout.workTop) nearest = dirname(nearest);
    const parent = await realpath(nearest);
    if (parent !== this.realTop && !parent.startsWith(this.realTop + sep))
      throw new Error(`${this.toWorkspacePath(path)} leads out of the scratch copy (a linked folder); the proposal is not written there.`);
    await mkdir(dirname(target), { recursive: true });
    const existing = await lstat(target).catch(() => undefined);
    if (existing?.isSymbolicLink()) await rm(target, { force: true });
    await writeFile(target, content);
  }

  private absolute(path: string): string {
    return join(this.layout.workTop, path);
  }

  private toWorkspacePath(path: string): string {
    return this.layout.prefix !== '' && path.startsWith(this.layout.prefix) ? path.slice(this.layout.prefix.length) : path;
  }
}

async function fingerprint(file: string): Promise<string> {
  const info = await stat(file).catch(() => undefined);
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : 'missing';
}
