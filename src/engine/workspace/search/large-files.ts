import { lstat } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { type Clock, systemClock } from '../../clock.js';

/** How long what a search learned about the workspace's large files is used before a search checks again. */
export const defaultLargeFileMemoryMs = 30_000;

/** More large files than this are not remembered: so many exclusions would cost what they save. */
export const maxRememberedLargeFiles = 100;

/**
 * The files of one workspace that are over the search's size limit, as a ripgrep run found them, so that
 * the next runs can exclude them by name instead of passing `--max-filesize`. That flag makes ripgrep
 * stat every file it walks, before opening it: 20,000 extra `statx` calls in a 20,000-file tree, 15 % of
 * a search that finds nothing (B7 in docs/performance.md).
 *
 * What was learned may be out of date, and the search stays exact either way:
 * - a remembered file that is no longer over the limit (or no longer a file) is not excluded:
 *   `exclusions` looks at each again, and they are few;
 * - a file that grew over the limit since is searched by ripgrep, once, at a cost in time only: the
 *   search drops its matches (ripgrep-search.ts looks at the size of every file that matched) and asks
 *   for the memory to be forgotten, so the next search checks every size again;
 * - and at the latest after `maxAgeMs` a search checks every size again.
 */
export class LargeFileMemory {
  private known: { paths: readonly string[]; limit: number; learnedAt: number } | undefined;

  constructor(
    private readonly clock: Clock = systemClock,
    readonly maxAgeMs = defaultLargeFileMemoryMs,
  ) {}

  /**
   * The files to exclude (workspace-relative) for a search under `root` with this `limit`: those still
   * over it. Undefined when nothing fresh is known: that search must check sizes itself.
   */
  async exclusions(root: string, limit: number): Promise<string[] | undefined> {
    const known = this.known;
    if (!known || known.limit !== limit || this.clock.now() - known.learnedAt > this.maxAgeMs) return undefined;
    const stillLarge = await Promise.all(
      known.paths.map(async (path) => {
        const info = await lstat(nodePath.join(root, path)).catch(() => undefined);
        return info !== undefined && info.isFile() && info.size > limit;
      }),
    );
    return known.paths.filter((_path, index) => stillLarge[index]);
  }

  /** What a search that checked every size found: `paths` are all the files over `limit`. */
  learn(paths: readonly string[], limit: number): void {
    // Sorted: ripgrep's threads find them in any order, and the same exclusions should read the same.
    this.known = paths.length > maxRememberedLargeFiles ? undefined : { paths: [...paths].sort(), limit, learnedAt: this.clock.now() };
  }

  /** Something changed that the memory does not show: the next search checks every size again. */
  forget(): void {
    this.known = undefined;
  }
}

/**
 * The file ripgrep's `--debug` output says `--max-filesize` skipped, from one line of it
 * (`DEBUG|ignore::walk|…: ignoring ./big.log: 123456789 bytes`, the same since ripgrep 0.x); undefined
 * for any other line.
 */
export function skippedForSize(line: string): string | undefined {
  return /^(?:rg: )?DEBUG\|ignore::walk\|.*?: ignoring (.+): \d+ bytes$/.exec(line)?.[1];
}

/**
 * ripgrep `--glob` arguments that exclude exactly these files (workspace-relative, POSIX), anchored at the
 * workspace root where ripgrep runs; undefined when a path cannot be written as such a glob (a backslash,
 * or spaces at its end, which gitignore syntax drops): the search then checks sizes instead.
 * `--glob`, not `--iglob`: a file of the same name in another case is not excluded with it.
 */
export function exclusionGlobs(paths: readonly string[]): string[] | undefined {
  const globs: string[] = [];
  for (const path of paths) {
    if (path.includes('\\') || /\s$/.test(path)) return undefined;
    // Each glob metacharacter in a class of its own is itself; `!` and `#` only mean something at the start.
    globs.push('--glob', `!/${path.replace(/[*?[\]{}]/g, '[$&]')}`);
  }
  return globs;
}
