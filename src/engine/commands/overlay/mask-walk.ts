/**
 * The mask's walk of the workspace's folders (overlay-mask.ts), made while `git ls-files` lists what is
 * ignored rather than after it: the walk records what decides which files are ignored (every folder and
 * `.gitignore` in view) and the nested repositories' metadata, and must not look below an ignored folder.
 * Until the list comes it walks ahead, but passes over the dependency folders (`node_modules`: the
 * largest, and nearly always ignored); once the list is known it skips what the list skips, walks the
 * folders it passed over that the list does not skip, and drops what it saw below a skipped folder. The
 * result is the walk made after the list: the same folders, the same files, never one more.
 */
import { lstatSync, type Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { linkedDirectoryNames } from '../scratch-copy-creation.js';

export interface WalkFound {
  /** Signatures of every folder and `.gitignore` in view, by absolute path. */
  watched: Map<string, string>;
  /** Nested repositories' metadata (`sub/.git`), top-relative. */
  nestedGit: string[];
}

/**
 * Walks `top` while `skippedLater` (top-relative paths not to look at or below, `.git` among them) is
 * being found. Rejects when `skippedLater` does.
 */
export async function walkAlongside(top: string, skippedLater: Promise<ReadonlySet<string>>): Promise<WalkFound> {
  let skipped: ReadonlySet<string> | undefined;
  const known = skippedLater.then((paths) => (skipped = paths));
  // Awaited after the first pass; a failure before then must not go unhandled.
  known.catch(() => undefined);
  const watched = new Map<string, string>();
  const nestedGit: string[] = [];
  const passedOver: string[] = [];
  const walk = async (relativePath: string): Promise<void> => {
    const folder = join(top, relativePath);
    watched.set(folder, signature(folder));
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    const below: Promise<void>[] = [];
    for (const entry of entries) {
      const path = relativePath === '' ? entry.name : `${relativePath}/${entry.name}`;
      if (path === '.git' || skipped?.has(path)) continue;
      if (entry.name === '.git') nestedGit.push(path);
      else if (entry.name === '.gitignore') watched.set(join(top, path), signature(join(top, path)));
      else if (!entry.isDirectory()) continue;
      else if (skipped === undefined && linkedDirectoryNames.has(entry.name)) passedOver.push(path);
      else below.push(walk(path));
    }
    await Promise.all(below);
  };
  await walk('');
  const final = await known;
  await Promise.all(passedOver.filter((path) => !isAtOrBelow(final, path)).map(walk));
  // What was seen below a skipped folder before the list came: dropped, as if never looked at.
  for (const path of watched.keys()) if (isAtOrBelow(final, relative(top, path))) watched.delete(path);
  return { watched, nestedGit: nestedGit.filter((path) => !isAtOrBelow(final, path)) };
}

/** True when `path` (top-relative) or a folder above it is in `paths`. */
export function isAtOrBelow(paths: ReadonlySet<string>, path: string): boolean {
  for (let at = path; at !== '.' && at !== ''; at = dirname(at)) if (paths.has(at)) return true;
  return false;
}

/** What tells a change to a file or folder: its identity, size and times ('missing' when gone). */
export function signature(path: string): string {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return 'missing';
  }
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}
