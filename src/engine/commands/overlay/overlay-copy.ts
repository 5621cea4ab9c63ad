/**
 * A scratch copy that copies nothing: each command sees the workspace itself through an overlay mounted
 * in a private mount namespace: as root, one kept for the copy, where the next command's view is mounted
 * while nothing runs (overlay-holder.ts); otherwise one of the command's own (overlay-launch.ts). The
 * layers, from the bottom: the workspace (a
 * repository's top), read-only; the mask (overlay-mask.ts: ignored files and git's remotes taken away);
 * a fresh upper layer per command, holding the task's proposals before it runs and whatever it wrote
 * after. Nothing is put back between commands: the next one gets a new upper layer. What a command changed
 * is read from its upper layer alone (overlay-changes.ts), so neither the first command nor a later one
 * walks the workspace's files.
 *
 * The view is live: a later command sees what the user changed in the workspace since the first one (a
 * git-made copy keeps the workspace as it was when the tree's first command ran).
 */
import { chmodSync, lstatSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { CommandCopy } from '../command-copy.js';
import type { Git } from '../git-runner.js';
import type { CommandLaunch } from '../sandbox/command-launch.js';
import type { ProposedFile } from '../../file-tools/task-tools.js';
import { errorMessage } from '../../errors.js';
import { isInside, realPathOf } from '../sandbox/sandbox-policy.js';
import { runTool } from './run-tool.js';
import { overlayChanges } from './overlay-changes.js';
import { OverlayHolder } from './overlay-holder.js';
import { overlayLaunch, type OverlayMount, overlayOptions, overlayPathAllowed, type OverlayTools } from './overlay-launch.js';
import { buildMask, isMasked, type Mask, type MaskedTree, maskIsStale } from './overlay-mask.js';
import { atRepositoryTop, rebuiltMask, refuseForeignOwner, treeOf } from './overlay-tree.js';

/** One command's own layers: its upper layer and the overlay's work folder beside it. */
interface Layers {
  upper: string;
  work: string;
}

/** Links followed while placing one proposal, at most (a loop of links ends here). */
const maxLinksFollowed = 40;

export class OverlayCopy implements CommandCopy {
  readonly kind = 'overlay' as const;
  readonly linked: string[] = [];
  private written = new Map<string, string>();
  /** The upper layer's folders made for the proposals, and their identity as made. */
  private madeFolders = new Map<string, string>();
  /** Earlier layers being removed (in the background: the next command need not wait for it). */
  private removals: Promise<unknown> = Promise.resolve();
  /** The command's layers, numbered so a new one never reuses a folder the kernel may still hold. */
  private round = 0;
  private masks = 0;
  private upper = '';
  private work = '';
  /** As root: the namespace kept for this copy, where each command's view is mounted ahead of it. */
  private holder: OverlayHolder | undefined;
  /** The next command's layers, mounted in the holder while nothing runs. */
  private nextLayers: Promise<Layers> | undefined;

  private constructor(
    private readonly root: string,
    private readonly tree: MaskedTree,
    /** The workspace's place under the top: '' or `sub/dir/`. */
    private readonly prefix: string,
    private readonly tools: OverlayTools,
    private readonly git: Git,
    private mask: Mask,
  ) {}

  /**
   * `git`: the host's runner (createGitRunner over its environment), for the mask's rebuilds; `creationGit`:
   * the git this creation alone uses (default `git`), one that reads the repository's configuration once
   * (GitRunner.oneCreation).
   */
  static async create(
    workspaceRoot: string,
    directory: string,
    tools: OverlayTools,
    git: Git,
    creationGit: Git = git,
  ): Promise<OverlayCopy> {
    const folder = await realpath(workspaceRoot);
    const root = await mkdtemp(join(directory, `${process.pid}-`));
    const maskFolder = join(root, 'mask-0');
    // A workspace at its repository's top (its `.git` a folder: the usual case) has its mask built while
    // rev-parse confirms that; the mask is used only if it does, and no check below is skipped for it.
    const early = (await atRepositoryTop(folder, root)) ? buildMask({ top: folder, repository: true }, maskFolder, creationGit) : undefined;
    // Awaited below (or settled before the copy's folder is removed); a failure must not go unhandled.
    early?.catch(() => undefined);
    try {
      const { tree, prefix } = await treeOf(folder, root, creationGit);
      if (!overlayPathAllowed(tree.top) || !overlayPathAllowed(root))
        throw new Error(`the path of the workspace or of the scratch directory cannot be given to an overlay mount`);
      // The kernel refuses layers inside one another: a scratch directory in the workspace gets the git-made copy.
      if (isInside(root, tree.top) || isInside(tree.top, root))
        throw new Error('the scratch directory and the workspace lie inside one another');
      await refuseForeignOwner(tree.top, tools);
      const mask =
        early && tree.repository && tree.top === folder && prefix === ''
          ? early
          : early
            ? early.then(
                () => rebuiltMask(tree, maskFolder, creationGit),
                () => rebuiltMask(tree, maskFolder, creationGit),
              )
            : buildMask(tree, maskFolder, creationGit);
      mask.catch(() => undefined);
      // Started first: it starts while the mask is built.
      const view = join(root, 'view');
      await mkdir(join(view, prefix), { recursive: true });
      const holder = OverlayHolder.start(tools, view);
      try {
        const copy = new OverlayCopy(root, tree, prefix, tools, git, await mask);
        copy.holder = holder;
        await copy.tryMount();
        return copy;
      } catch (error) {
        holder?.stop();
        throw error;
      }
    } catch (error) {
      // The early mask writes in the copy's folder: it ends before the folder is removed.
      await early?.catch(() => undefined);
      await rm(root, { recursive: true, force: true });
      throw error;
    }
  }

  /** False once the namespace kept for the copy has ended (as root): its next view could not be mounted. */
  get usable(): boolean {
    return this.holder?.alive ?? true;
  }

  get cwd(): string {
    return join(this.view, this.prefix);
  }

  /** The view alone is writable; its layers stay out of the sandbox (the workspace is hidden there, and the overlay reads it all the same). */
  get sandboxPaths(): { writable: string[]; readOnly: string[] } {
    return { writable: [this.view], readOnly: [] };
  }

  async prepare(proposals: readonly ProposedFile[], signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (maskIsStale(this.mask)) {
      // What was mounted ahead used the old mask: it is replaced.
      const ahead = await this.nextLayers?.catch(() => undefined);
      this.nextLayers = undefined;
      if (ahead) this.retire(ahead);
      await this.rebuildMask();
    }
    const previous = { upper: this.upper, work: this.work };
    const layers = this.holder ? await (this.nextLayers ?? this.mountNext()) : await this.freshLayers();
    this.nextLayers = undefined;
    ({ upper: this.upper, work: this.work } = layers);
    this.retire(previous);
    this.written = new Map();
    this.madeFolders = new Map();
    for (const file of proposals) {
      const path = this.placeOf(this.prefix + file.path, file.path);
      if (this.holder) this.writeThroughView(path, file.content);
      else this.writeUpper(path, file.content);
      this.written.set(path, file.content);
    }
  }

  /**
   * Mounts this workspace's view once, empty, before any command needs it (the mount point, and the
   * workspace's place in it, where the command's process starts before it goes into the view, exist): the probe proved overlays work
   * in the scratch directory, not that the workspace's file system can be a lower layer (some network
   * and FUSE ones cannot). One that cannot gets the git-made copy instead of failing every command.
   */
  private async tryMount(): Promise<void> {
    if (this.holder) {
      // In a held namespace the mount is the trial (and `nsenter` was tried when the overlay was detected).
      // Its layers are still empty: they are kept as the first command's, which then mounts nothing more.
      this.nextLayers = this.mountNext();
      await this.nextLayers;
      return;
    }
    await this.prepare([]);
    const launch = this.launch({ file: '/bin/sh', args: ['-c', 'true'], environment: {} });
    await runTool(launch.file, launch.args, { cwd: this.cwd, environment: { PATH: '/usr/bin:/bin' } }).catch((error: unknown) => {
      throw new Error(`the workspace cannot be overlaid: ${errorMessage(error)}`);
    });
  }

  launch(launch: CommandLaunch): CommandLaunch {
    return this.holder ? this.holder.launch(launch, this.cwd) : overlayLaunch(launch, this.tools, this.layers(), this.cwd);
  }

  async changedFiles(signal?: AbortSignal): Promise<string[]> {
    signal?.throwIfAborted();
    const mask = this.mask;
    // Git's own bookkeeping is never a change, as git never lists it: a command's `git init` or `git add`.
    const unreported = (path: string) =>
      path.split('/').includes('.git') || mask.dependencies.some((folder) => path === folder || path.startsWith(`${folder}/`));
    const holder = this.holder;
    const listView = holder ? (path: string) => readdir(holder.inside(join(this.view, path))) : undefined;
    const changed = await overlayChanges({
      upper: this.upper,
      lower: this.layers().lower,
      top: this.tree.top,
      view: this.view,
      masked: (path) => isMasked(mask, path),
      unreported,
      written: this.written,
      madeFolders: this.madeFolders,
      tools: this.tools,
      ...(listView ? { listView } : {}),
    });
    // The command is over and its view read: the next one's is mounted now, while nothing waits for it.
    if (this.holder && !this.nextLayers) {
      this.nextLayers = this.mountNext();
      this.nextLayers.catch(() => undefined);
    }
    return changed.map((path) => this.toWorkspacePath(path)).sort();
  }

  changedFilePath(path: string): string {
    return join(this.upper, ...(this.prefix + path).split('/'));
  }

  async remove(): Promise<void> {
    this.holder?.stop();
    const ahead = await this.nextLayers?.catch(() => undefined);
    if (ahead) this.retire(ahead);
    await this.removals;
    if (this.work !== '') await removeLayer(this.work).catch(() => undefined);
    await rm(this.root, { recursive: true, force: true, maxRetries: 3 });
  }

  private get view(): string {
    return join(this.root, 'view');
  }

  /** New, empty layers for the next command. */
  private async freshLayers(): Promise<Layers> {
    this.round += 1;
    const layers = { upper: join(this.root, `upper-${this.round}`), work: join(this.root, `work-${this.round}`) };
    await Promise.all([mkdir(layers.upper), mkdir(layers.work)]);
    return layers;
  }

  /** New layers, mounted in the holder in place of the last command's. */
  private async mountNext(): Promise<Layers> {
    const holder = this.holder as OverlayHolder;
    const layers = await this.freshLayers();
    await holder.mount(overlayOptions({ lower: [this.mask.folder, this.tree.top], ...layers, view: this.view }, true));
    return layers;
  }

  /** Removes layers no command uses any more, in the background: the next command need not wait for it. */
  private retire(layers: Layers): void {
    const folders = [layers.upper, layers.work].filter((folder) => folder !== '');
    this.removals = Promise.all([this.removals, ...folders.map((folder) => removeLayer(folder).catch(() => undefined))]);
  }

  private layers(): OverlayMount {
    return { lower: [this.mask.folder, this.tree.top], upper: this.upper, work: this.work, view: this.view };
  }

  private async rebuildMask(): Promise<void> {
    const old = this.mask.folder;
    this.masks += 1;
    this.mask = await buildMask(this.tree, join(this.root, `mask-${this.masks}`), this.git);
    await rm(old, { recursive: true, force: true });
  }

  /**
   * Where a proposal for `path` (top-relative) goes in the upper layer. A link on the way in the workspace
   * is followed as the view would follow it when it stays in the workspace; one that leads out of it is
   * refused: the proposal would land somewhere else than the command reads it.
   */
  private placeOf(path: string, shown: string): string {
    if (path.split('/').some((part) => part === '..' || part === '') || path.startsWith('/'))
      throw new Error(`${shown} is not a path inside the workspace; the proposal is not written.`);
    let parts = path.split('/');
    for (let index = 0, links = 0; index < parts.length - 1; index++) {
      const at = parts.slice(0, index + 1).join('/');
      if (isMasked(this.mask, at)) break;
      const stats = lstatSync(join(this.tree.top, at), { throwIfNoEntry: false });
      if (!stats) break;
      if (!stats.isSymbolicLink()) continue;
      const target = realPathOf(join(this.tree.top, at));
      const inside = target === undefined ? undefined : relative(this.tree.top, target);
      if (inside === undefined || inside.startsWith('..') || inside.startsWith(sep) || ++links > maxLinksFollowed)
        throw new Error(`${shown} leads out of the scratch copy (a linked folder); the proposal is not written there.`);
      parts = [...(inside === '' ? [] : inside.split(sep)), ...parts.slice(index + 1)];
      index = -1;
    }
    return parts.join('/');
  }

  /**
   * Writes a proposal through the mounted view (held namespace): the overlay copies up what it must and
   * the new folders keep the modes of the workspace's. A link at the proposal's own place is removed first
   * (through the view: the workspace keeps it): writing through it would write where it points. The
   * upper layer's folders on the way are recorded as the copy's own.
   */
  private writeThroughView(path: string, content: string): void {
    const holder = this.holder as OverlayHolder;
    const inView = holder.inside(join(this.view, path));
    mkdirSync(dirname(inView), { recursive: true });
    if (lstatSync(inView, { throwIfNoEntry: false })?.isSymbolicLink()) unlinkSync(inView);
    writeFileSync(inView, content);
    const parts = path.split('/');
    for (let index = 1; index < parts.length; index++) {
      const folder = parts.slice(0, index).join('/');
      const made = lstatSync(join(this.upper, folder), { bigint: true, throwIfNoEntry: false });
      if (made) this.madeFolders.set(folder, `${made.ino}:${made.birthtimeNs}`);
    }
  }

  /**
   * Writes into the upper layer, its new folders given the modes of the workspace's (the view shows the
   * upper one's). Synchronous on purpose, as placeOf: a proposal is a dozen quick system calls, which cost
   * far less in a row than as many round trips through the thread pool on a busy machine.
   */
  private writeUpper(path: string, content: string): void {
    const parts = path.split('/');
    for (let index = 1; index < parts.length; index++) {
      const folder = parts.slice(0, index).join('/');
      const upperFolder = join(this.upper, folder);
      if (lstatSync(upperFolder, { throwIfNoEntry: false })) continue;
      mkdirSync(upperFolder);
      const below = isMasked(this.mask, folder) ? undefined : lstatSync(join(this.tree.top, folder), { throwIfNoEntry: false });
      if (below?.isDirectory()) chmodSync(upperFolder, below.mode & 0o7777);
      const made = lstatSync(upperFolder, { bigint: true });
      this.madeFolders.set(folder, `${made.ino}:${made.birthtimeNs}`);
    }
    writeFileSync(join(this.upper, path), content);
  }

  private toWorkspacePath(path: string): string {
    return this.prefix !== '' && path.startsWith(this.prefix) ? path.slice(this.prefix.length) : path;
  }
}

/**
 * Removes a layer. The kernel leaves a folder of mode 000 in the overlay's work folder, which only root
 * may enter as it is: it is opened to its owner first.
 */
async function removeLayer(folder: string): Promise<void> {
  await chmod(join(folder, 'work'), 0o700).catch(() => undefined);
  await rm(folder, { recursive: true, force: true });
}
