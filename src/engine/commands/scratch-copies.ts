/**
 * The scratch copies of each task tree. A tree's first command makes a copy; later commands reuse it
 * (brought to each task's view incrementally). Commands of one tree that run at the same time each need a
 * copy to themselves (their tasks may see different proposals), so a busy copy is never shared: another
 * is made. When the tree has ended, its copies are removed; copies a crashed editor left behind are removed
 * by the next one that starts.
 *
 * Which kind of copy: an overlay view where this machine can mount one (found once by trying), which costs
 * tens of milliseconds whatever the workspace's size; else a git-made copy, which costs about a second
 * for 20,000 files. A workspace the overlay cannot serve (a linked worktree) gets the git-made copy too.
 */
import { rm } from 'node:fs/promises';
import type { CommandCopy } from './command-copy.js';
import { createGitRunner, type GitRunner } from './git-runner.js';
import { OverlayCopy } from './overlay/overlay-copy.js';
import { overlaySupport } from './overlay/overlay-support.js';
import { makeScratchCopy, removeLeftovers, type ScratchCopyKind } from './scratch-copy-kind.js';
import { privateScratchPlace, type ScratchPlace } from './scratch-directory.js';
import { SpareCopy } from './spare-copy.js';

export interface ScratchCopiesOptions {
  workspaceRoot: string;
  /**
   * Where copies are made. Default: `$XDG_RUNTIME_DIR/agent-team-scratch` when that is a private folder of
   * ours, else `agent-team-scratch-<uid>` in the system's temporary directory. Whichever it is, one that is
   * not ours alone (a link, another user's) is not used: a fresh private folder is (scratch-directory.ts).
   */
  directory?: string;
  /** Where `XDG_RUNTIME_DIR` is read, and git's environment (the host's). Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /**
   * `auto` (default): an overlay where one can be mounted, else a git-made copy. `overlay`: an overlay or
   * an error saying why not (the tests of that path); `git`: always the git-made copy.
   */
  kind?: ScratchCopyKind;
}

interface TreeCopies {
  idle: CommandCopy[];
  busy: Set<CommandCopy>;
  ended: boolean;
}

export class ScratchCopies {
  private readonly trees = new Map<string, TreeCopies>();
  /** The place checked and the leftovers in it removed, once, before the first copy. */
  private placed: Promise<ScratchPlace> | undefined;
  /** Why the last copy made is not an overlay (for the trace), or undefined when it is one. */
  overlayUnavailable: string | undefined;
  /** The background start of `warmUp`, awaited by `dispose` (its probe's folder is removed by then). */
  private warming: Promise<void> | undefined;
  /** An overlay copy made by `warmUp` for the next first command (spare-copy.ts). */
  private readonly spare = new SpareCopy(() => this.makeSpare());

  /** git on the host's environment: the copies' and anything that reads the workspace's repository (checks' baseline). */
  readonly git: GitRunner;

  constructor(private readonly options: ScratchCopiesOptions) {
    this.git = createGitRunner(options.environment ?? process.env);
  }

  /** The directory copies are made in (checked to be ours alone), found at the first `acquire`. */
  async directory(): Promise<string> {
    this.placed ??= privateScratchPlace({
      ...(this.options.directory !== undefined ? { preferred: this.options.directory } : {}),
      ...(this.options.environment ? { environment: this.options.environment } : {}),
    }).then(async (place) => {
      await removeLeftovers(place.path);
      return place;
    });
    const place = await this.placed.catch((error: unknown) => {
      this.placed = undefined;
      throw error;
    });
    return place.path;
  }

  /** A copy for one command of tree `rootId`, this command's alone until `release`. */
  async acquire(rootId: string): Promise<CommandCopy> {
    const directory = await this.directory();
    let tree = this.trees.get(rootId);
    if (!tree) {
      tree = { idle: [], busy: new Set(), ended: false };
      this.trees.set(rootId, tree);
    }
    tree.ended = false;
    const copy = tree.idle.pop() ?? (await this.create(directory));
    tree.busy.add(copy);
    return copy;
  }

  /** Gives a copy back. `broken`: it could not be brought to a task's view or read back; it is removed, not reused. */
  release(rootId: string, copy: CommandCopy, options: { broken?: boolean } = {}): void {
    const tree = this.trees.get(rootId);
    if (!tree) {
      void copy.remove();
      return;
    }
    tree.busy.delete(copy);
    if (tree.ended || options.broken) void this.removeIdle(rootId, tree, copy);
    else tree.idle.push(copy);
  }

  /** The tree has ended: its idle copies go now, busy ones when their command ends. */
  async endTree(rootId: string): Promise<void> {
    const tree = this.trees.get(rootId);
    if (!tree) return;
    tree.ended = true;
    const idle = tree.idle.splice(0);
    if (tree.busy.size === 0) this.trees.delete(rootId);
    await Promise.all(idle.map((copy) => copy.remove()));
  }

  /** Number of copies of a tree (for the tests and the benchmark). */
  count(rootId: string): number {
    const tree = this.trees.get(rootId);
    return tree ? tree.idle.length + tree.busy.size : 0;
  }

  /** Removes every copy (the host is shutting down), and the place itself when it was made fresh for this process. */
  async dispose(): Promise<void> {
    await this.warming;
    await this.spare.dispose();
    const all = [...this.trees.values()].flatMap((tree) => [...tree.idle, ...tree.busy]);
    this.trees.clear();
    await Promise.all(all.map((copy) => copy.remove()));
    const place = await this.placed?.catch(() => undefined);
    if (!place?.fresh) return;
    this.placed = undefined;
    await rm(place.path, { recursive: true, force: true }).catch(() => undefined);
  }

  /**
   * Starts, in the background, what the first copy needs: the place checked, the overlay tried (about a
   * second under load, B9) together with the sandbox that runs in it, and then an overlay copy made ahead
   * (its namespace, mask and mounted view: most of a first command's wait, B9). Called when a task that
   * may run commands starts, so its first command, a model turn later, finds them done. Idempotent while
   * the copy made ahead is not taken; a failure here is not reported: the first `acquire` meets it again
   * and says why. Resolves when it is done (never rejects).
   */
  warmUp(): Promise<void> {
    if ((this.options.kind ?? 'auto') === 'git') return Promise.resolve();
    if (this.warming && this.spare.held) return this.warming;
    this.warming = this.spare.fill();
    return this.warming;
  }

  /** The copy `warmUp` makes ahead: an overlay alone (undefined where there is none). */
  private async makeSpare(): Promise<OverlayCopy | undefined> {
    const directory = await this.directory();
    if (!(await overlaySupport(directory)).available) return undefined;
    const { copy } = await makeScratchCopy(this.options.workspaceRoot, directory, 'overlay', this.git);
    return copy instanceof OverlayCopy ? copy : undefined;
  }

  private async create(directory: string): Promise<CommandCopy> {
    const spare = await this.spare.take();
    if (spare instanceof OverlayCopy && spare.usable) {
      this.overlayUnavailable = undefined;
      return spare;
    }
    // One whose namespace ended while it waited is of no use: a new copy is made.
    void spare?.remove().catch(() => undefined);
    const made = await makeScratchCopy(this.options.workspaceRoot, directory, this.options.kind ?? 'auto', this.git);
    if ('overlayUnavailable' in made) this.overlayUnavailable = made.overlayUnavailable;
    return made.copy;
  }

  private async removeIdle(rootId: string, tree: TreeCopies, copy: CommandCopy): Promise<void> {
    if (tree.busy.size === 0 && tree.idle.length === 0) this.trees.delete(rootId);
    await copy.remove();
  }
}
