import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import { throwIfStopped } from '../../abort.js';
import { ancestorIgnores, type WalkContext } from '../node-walk.js';
import { type SearchResult } from '../workspace.js';
import { type EngineSearchRequest } from './javascript-search.js';
import { exclusionGlobs, type LargeFileMemory } from './large-files.js';
import { type ProcessSlots, ripgrepProcesses } from './process-slots.js';
import { searchGlobMatcher } from './search-pattern.js';
import { type OverflowMode, runRipgrep } from './ripgrep-run.js';
import { compareMatches, largeMatchedFiles, type RipgrepRun, strip } from './ripgrep-output.js';

/**
 * `Workspace.search` through ripgrep. The flags make ripgrep apply exactly the rules the JavaScript walk
 * applies (see node-walk.ts), so both engines return the same lines:
 * - only `.gitignore` files inside the workspace (no global, `.ignore`, `.git/info/exclude` or parent
 *   files; ancestors of a searched subdirectory come in rewritten through `--ignore-file`), in or out
 *   of a git repository;
 * - hidden files searched, the policy's excluded names skipped, symlinks not followed.
 *
 * The result is the first `maxResults` matches in the walk's order (`comparePaths`, then line). ripgrep
 * runs unsorted first: `--sort path` makes it single-threaded, about twice as slow on two cores. Its
 * matches are sorted here. Only when there are more than `maxResults` (a common pattern) does it run
 * again with `--sort path`, stopped right after the first `maxResults` matches: the unsorted run cannot
 * tell which matches come first without reading them all, and the sorted run finds those quickly.
 *
 * Files over `maxFileBytes` are skipped, as the JavaScript engine skips them. A file ripgrep is given to
 * search is checked here, as ripgrep searches it whatever its size. For the files it walks, either:
 * - `--max-filesize`, which makes ripgrep stat every file before opening it (10-15 % of a search); a
 *   search of the whole workspace then also learns from ripgrep's `--debug` lines which files that
 *   skipped, into `largeFiles` (large-files.ts);
 * - or, while `largeFiles` knows them, those files excluded by name, and the size of each file that
 *   matched looked at afterwards (unless ripgrep's `end` message for it already shows it within the
 *   limit): one that grew over the limit since is dropped (and the memory forgotten), and a capped
 *   result that lost lines that way is searched again with `--max-filesize`.
 *
 * Each ripgrep process takes one of `slots` (process-wide: `ripgrepProcesses`) for its lifetime, so that
 * twenty parallel Grep calls do not start twenty processes that each want every core.
 */
export async function searchWithRipgrep(
  ripgrepPath: string,
  context: WalkContext,
  request: EngineSearchRequest,
  options: RipgrepSearchOptions = {},
): Promise<SearchResult> {
  const { slots = ripgrepProcesses, largeFiles } = options;
  throwIfStopped(request.signal);
  if (request.startIsFile) {
    const info = await stat(nodePath.join(context.root, request.start)).catch(() => undefined);
    if (info && info.size > request.maxFileBytes) return { matches: [], truncated: false };
  }
  const { policy } = context.matcher;
  const args = [
    '--json',
    '--no-config',
    '--hidden',
    '--no-require-git',
    '--no-ignore-parent',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--no-ignore-dot',
    '--no-messages',
  ];
  if (!policy.respectGitignore) args.push('--no-ignore-vcs');
  if (request.caseInsensitive) args.push('--ignore-case');
  if (policy.excludedDirectories.length > 0) args.push('--iglob', `!${anyOf(policy.excludedDirectories)}`);
  // The caller's glob must not re-include gitignored files, which a ripgrep `--glob` would do. A file
  // type filters without overriding ignore rules, but matches file names only; other globs are applied
  // to the results instead (ripgrep then reads more files, with the same outcome).
  const glob = request.glob?.trim() ?? '';
  const asFileType = glob !== '' && !glob.includes('/') && !glob.startsWith('!') && !glob.startsWith('include:');
  if (asFileType) args.push('--type-add', `agentteamglob:${glob}`, '--type', 'agentteamglob');
  // Compiled even when ripgrep applies it, so that both engines refuse the same globs (length, braces).
  const globMatcher = await searchGlobMatcher(glob);
  const keep = asFileType || request.startIsFile ? () => true : globMatcher;
  let ignoreDirectory: string | undefined;
  try {
    const ancestorRules = request.startIsFile ? [] : (await ancestorIgnores(context, request.start)).rootRelativeRules();
    if (ancestorRules.length > 0) {
      ignoreDirectory = await mkdtemp(nodePath.join(tmpdir(), 'agent-team-rg-'));
      const ignoreFile = nodePath.join(ignoreDirectory, 'ancestors.gitignore');
      await writeFile(ignoreFile, `${ancestorRules.join('\n')}\n`);
      args.push('--ignore-file', ignoreFile);
    }
    const target = ['--regexp', request.pattern, '--', ...(request.start !== '' ? [request.start] : [])];
    const run = async (runArgs: string[], mode: OverflowMode) => {
      const release = await slots.acquire(request.signal);
      try {
        return await runRipgrep(ripgrepPath, runArgs, context.root, request, keep, mode);
      } finally {
        release();
      }
    };
    const search = async (sizeArgs: string[]): Promise<RipgrepRun> => {
      const unsorted = await run([...args, ...sizeArgs, ...target], 'collect');
      if (!unsorted.truncated) return { ...unsorted, matches: unsorted.matches.sort(compareMatches) };
      return await run([...args, ...sizeArgs, '--sort', 'path', ...target], 'first');
    };
    const limit = ['--max-filesize', String(request.maxFileBytes)];
    if (request.startIsFile) return strip(await search([]));
    const excluded = await largeFiles?.exclusions(context.root, request.maxFileBytes);
    const exclusions = excluded && exclusionGlobs(excluded);
    if (!exclusions) {
      // A whole-workspace search walks every file: what its size limit skipped is all there is to learn.
      const learns = largeFiles !== undefined && request.start === '' && glob === '';
      const result = await search(learns ? [...limit, '--debug'] : limit);
      if (learns && result.completed && result.sawDebug) largeFiles.learn(result.skippedForSize, request.maxFileBytes);
      return strip(result);
    }
    const result = await search(exclusions);
    const large = await largeMatchedFiles(context.root, result, request.maxFileBytes);
    if (large.size === 0) return strip(result);
    largeFiles?.forget();
    // Dropping lines from a capped result would leave it short: that one search is made again the exact way.
    if (result.truncated) return strip(await search(limit));
    return { matches: result.matches.filter((match) => !large.has(match.path)), truncated: false };
  } finally {
    if (ignoreDirectory) await rm(ignoreDirectory, { recursive: true, force: true });
  }
}

/**
 * At most how large a file can be that ripgrep searched to the end: `bytes_searched` counts what it
 * searched after decoding, and a UTF-16 file (with its byte-order mark) decodes to at least half its size.
 */

export interface RipgrepSearchOptions {
  /** The process-wide cap on ripgrep processes. Default: `ripgrepProcesses`. */
  slots?: ProcessSlots;
  /** What earlier searches of this workspace learned about its files over the size limit. Default: none, every search passes `--max-filesize`. */
  largeFiles?: LargeFileMemory;
}

/**
 * One glob for all the excluded names: `{.git,node_modules,…}`, each name literal (its glob characters and
 * commas in classes of their own). ripgrep matches every path it walks against each override glob, and
 * one case-insensitive glob costs a fraction of five (B7).
 */
function anyOf(names: readonly string[]): string {
  const literal = names.map((name) => name.replace(/[*?[\]{},]/g, '[$&]'));
  return literal.length === 1 ? literal[0] : `{${literal.join(',')}}`;
}
