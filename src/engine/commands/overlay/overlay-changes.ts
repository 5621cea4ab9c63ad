/**
 * What a command changed in an overlay view, read from its upper layer alone: that layer holds the
 * proposals written for it and everything the command wrote (files copied up whole, new ones, whiteouts
 * for deletions), so no walk of the workspace is needed. A file copied up but equal to the layer below (a
 * `touch`, a file opened for writing and left alone) is not a change; a proposal still as written is not
 * either. Paths under the repository's `.git` (git's own bookkeeping) and under dependency folders are not
 * reported, as the git-made copy does not report them.
 *
 * One case needs the merged view itself: a folder of the workspace the command removed and made again is
 * "opaque" in the upper layer (marked by an extended attribute, which Node cannot read), and the files it
 * held that were not made again are gone. Those folders are looked at in the view itself where this
 * process can reach it (a kept namespace), else through a read-only mount of the same layers in one short
 * process; only folders of the workspace that the upper layer holds and the proposals did not make.
 */
import type { Dirent, Stats } from 'node:fs';
import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { type OverlayTools, privateMountShell } from './overlay-launch.js';
import { isWhiteout } from './whiteouts.js';
import { runTool } from './run-tool.js';

export interface ChangesInput {
  /** The upper layer after the command. */
  upper: string;
  /** The read-only layers below it, highest first (mask, workspace). */
  lower: readonly string[];
  /** The workspace's top (the lowest layer). */
  top: string;
  /** An empty folder to mount on (the command's mount point: its namespace is gone). */
  view: string;
  /** True when a top-relative path is not in the view below the upper layer (masked). */
  masked(path: string): boolean;
  /** True when changes at a top-relative path are not reported (`.git`, dependency folders). */
  unreported(path: string): boolean;
  /** The proposals written into the upper layer, by top-relative path. */
  written: ReadonlyMap<string, string>;
  /**
   * The folders made in the upper layer for the proposals, by top-relative path: their identity (inode
   * and birth time) as made. One that still has it was not removed and made again: it cannot be opaque.
   */
  madeFolders: ReadonlyMap<string, string>;
  tools: OverlayTools;
  /** The names in a folder of the merged view, where this process can read it (a held namespace). Default: a read-only mount is made to look. */
  listView?(path: string): Promise<string[]>;
}

/** The top-relative paths the command changed, sorted. */
export async function overlayChanges(input: ChangesInput): Promise<string[]> {
  const changed = new Set<string>();
  const seen = new Set<string>();
  const candidates: Array<{ path: string; upperNames: Set<string> }> = [];
  const visit = async (relative: string): Promise<void> => {
    const entries = await readdir(join(input.upper, relative), { withFileTypes: true });
    const nested: Promise<void>[] = [];
    for (const entry of entries) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (input.unreported(path)) continue;
      nested.push(judge(path, entry));
    }
    await Promise.all(nested);
  };
  const judge = async (path: string, entry: Dirent): Promise<void> => {
    seen.add(path);
    const below = await lowerStats(input, path);
    // A file made a folder, or a folder made a file: what was there is gone.
    if (below && entry.isDirectory() !== below.isDirectory()) for (const file of await filesBelow(input, path, below)) changed.add(file);
    if (entry.isDirectory()) {
      if (below?.isDirectory() && input.madeFolders.get(path) !== (await folderIdentity(join(input.upper, path))))
        candidates.push({ path, upperNames: new Set(await readdir(join(input.upper, path))) });
      return visit(path);
    }
    const stats = await lstat(join(input.upper, path));
    if (isWhiteout(stats)) {
      if (input.written.has(path)) changed.add(path);
      else if (below) for (const file of await filesBelow(input, path, below)) changed.add(file);
      return;
    }
    const proposed = input.written.get(path);
    if (proposed !== undefined) {
      if (!stats.isFile() || (await readFile(join(input.upper, path), 'utf8').catch(() => undefined)) !== proposed) changed.add(path);
      return;
    }
    if (!below || !(await sameAsBelow(join(input.upper, path), stats, join(input.top, path), below))) changed.add(path);
  };
  await visit('');
  // A proposal the command removed (or made a folder of) is no longer a file in the upper layer.
  for (const path of input.written.keys()) if (!seen.has(path) && !input.unreported(path)) changed.add(path);
  for (const path of await goneUnderOpaqueFolders(input, candidates)) changed.add(path);
  return [...changed].sort();
}

/** A folder's inode and birth time: a folder removed and made again may get the inode back, not the time. */
async function folderIdentity(path: string): Promise<string | undefined> {
  const stats = await lstat(path, { bigint: true }).catch(() => undefined);
  return stats ? `${stats.ino}:${stats.birthtimeNs}` : undefined;
}

/** The workspace's entry at `path` as the view shows it below the upper layer; undefined when there is none. */
async function lowerStats(input: ChangesInput, path: string): Promise<Stats | undefined> {
  if (input.masked(path)) return undefined;
  return lstat(join(input.top, path)).catch(() => undefined);
}

async function sameAsBelow(upperPath: string, upper: Stats, lowerPath: string, lower: Stats): Promise<boolean> {
  if (upper.isSymbolicLink() || lower.isSymbolicLink()) {
    return (
      upper.isSymbolicLink() && lower.isSymbolicLink() && (await readlink(upperPath)) === (await readlink(lowerPath).catch(() => undefined))
    );
  }
  // The executable bit is a change git reports too; the rest of the mode, the times and the owner are not.
  if (!upper.isFile() || !lower.isFile() || upper.size !== lower.size || (upper.mode & 0o111) !== (lower.mode & 0o111)) return false;
  const [mine, theirs] = await Promise.all([readFile(upperPath), readFile(lowerPath).catch(() => undefined)]);
  return theirs !== undefined && mine.equals(theirs);
}

/** The files a deletion of `path` removed from the view: itself, or every file in view below it. */
async function filesBelow(input: ChangesInput, path: string, stats: Stats): Promise<string[]> {
  if (!stats.isDirectory()) return [path];
  const entries = await readdir(join(input.top, path), { withFileTypes: true }).catch(() => []);
  const files = await Promise.all(
    entries.map(async (entry) => {
      const child = `${path}/${entry.name}`;
      if (input.masked(child) || input.unreported(child)) return [];
      return entry.isDirectory() ? filesBelow(input, child, await lstat(join(input.top, child))) : [child];
    }),
  );
  return files.flat();
}

/**
 * Of the candidates' lower entries that the upper layer does not name, those missing from the merged view
 * (their folder was opaque): looked for through a read-only mount of the same layers.
 */
async function goneUnderOpaqueFolders(
  input: ChangesInput,
  candidates: ReadonlyArray<{ path: string; upperNames: Set<string> }>,
): Promise<string[]> {
  const unseen: string[] = [];
  const missing: string[] = [];
  for (const candidate of candidates) {
    const names = await readdir(join(input.top, candidate.path)).catch(() => [] as string[]);
    const inView = input.listView ? new Set(await input.listView(candidate.path)) : undefined;
    for (const name of names) {
      const path = `${candidate.path}/${name}`;
      if (candidate.upperNames.has(name) || input.masked(path) || input.unreported(path)) continue;
      if (!inView) unseen.push(path);
      else if (!inView.has(name)) missing.push(path);
    }
  }
  // In slices: a folder of a hundred thousand files must not overflow one argument list.
  for (let start = 0; start < unseen.length; start += pathsPerLook)
    missing.push(...splitMissing(await lookInView(input, unseen.slice(start, start + pathsPerLook))));
  const gone = await Promise.all(missing.map(async (path) => filesBelow(input, path, await lstat(join(input.top, path)))));
  return gone.flat();
}

/** Paths looked for by one process. */
const pathsPerLook = 2_000;

const lookScript =
  '"$1" -t overlay -o "$2" overlay "$3" && cd "$3" && shift 3 && for path do [ -e "$path" ] || [ -h "$path" ] || printf "%s\\0" "$path"; done';

async function lookInView(input: ChangesInput, paths: readonly string[]): Promise<string> {
  // Only lower layers: the mount is read-only and needs no work folder.
  const layers = [input.upper, ...input.lower].join(':');
  const options = `lowerdir=${layers}${input.tools.privileged ? ',redirect_dir=off,metacopy=off' : ',userxattr'}`;
  return runTool(input.tools.unshare, [
    ...privateMountShell(input.tools, lookScript, 'agent-team-overlay-look'),
    input.tools.mount,
    options,
    input.view,
    ...paths,
  ]);
}

function splitMissing(output: string): string[] {
  return output.split('\0').filter((path) => path !== '');
}
