import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import { createInterface } from 'node:readline';
import { onAbort, throwIfStopped } from '../../abort.js';
import { programEnvironment, startProcess } from '../../process-launcher.js';
import { ancestorIgnores, type WalkContext } from '../node-walk.js';
import { comparePaths } from '../paths.js';
import { type SearchMatch, type SearchResult } from '../workspace.js';
import { type EngineSearchRequest } from './javascript-search.js';
import { exclusionGlobs, type LargeFileMemory, skippedForSize } from './large-files.js';
import { type ProcessSlots, ripgrepProcesses } from './process-slots.js';
import { invalidPattern, searchGlobMatcher } from './search-pattern.js';
import { AgentTeamError } from '../../errors.js';

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
function largestSizeFor(bytesSearched: number): number {
  return 2 * bytesSearched + 4;
}

interface RipgrepEndMessage {
  type: 'end';
  data: { path: { text?: string; bytes?: string }; binary_offset: number | null; stats?: { bytes_searched?: number } };
}

interface RipgrepMatchMessage {
  type: 'match';
  data: {
    path: { text?: string; bytes?: string };
    lines: { text?: string; bytes?: string };
    line_number: number | null;
  };
}

export interface RipgrepSearchOptions {
  /** The process-wide cap on ripgrep processes. Default: `ripgrepProcesses`. */
  slots?: ProcessSlots;
  /** What earlier searches of this workspace learned about its files over the size limit. Default: none, every search passes `--max-filesize`. */
  largeFiles?: LargeFileMemory;
}

/** One search as ripgrep ran it, with what its `--debug` lines said when it was asked for them. */
interface RipgrepRun extends SearchResult {
  /** ripgrep walked to the end (it was not stopped at the cap). */
  completed: boolean;
  /** Files `--max-filesize` skipped, workspace-relative. */
  skippedForSize: string[];
  /** ripgrep printed `--debug` lines at all (so that none about sizes means none was skipped). */
  sawDebug: boolean;
  /** Files ripgrep searched to the end whose size its `end` message shows within the limit: not looked at again. */
  smallFiles: Set<string>;
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

function strip(run: RipgrepRun): SearchResult {
  return { matches: run.matches, truncated: run.truncated };
}

/** The files among those that matched that are over `limit` now (a vanished one is not). */
async function largeMatchedFiles(root: string, run: RipgrepRun, limit: number): Promise<Set<string>> {
  const paths = [...new Set(run.matches.map((match) => match.path))].filter((path) => !run.smallFiles.has(path));
  const sizes = await Promise.all(
    paths.map((path) =>
      stat(nodePath.join(root, path)).then(
        (info) => info.size,
        () => 0,
      ),
    ),
  );
  return new Set(paths.filter((_path, index) => sizes[index] > limit));
}

function compareMatches(a: SearchMatch, b: SearchMatch): number {
  return comparePaths(a.path, b.path) || a.line - b.line;
}

/**
 * How a run ends once it has more than `maxResults` matches; either way ripgrep is stopped there and the
 * result says `truncated`.
 * - `collect` (unsorted output): the matches held are not the first ones; the caller runs again sorted.
 * - `first` (`--sort path` output): everything after the first `maxResults` sorts later; they are the result.
 */
type OverflowMode = 'collect' | 'first';

function runRipgrep(
  ripgrepPath: string,
  args: string[],
  root: string,
  request: EngineSearchRequest,
  keep: (path: string) => boolean,
  mode: OverflowMode,
): Promise<RipgrepRun> {
  return new Promise<RipgrepRun>((resolve, reject) => {
    // The base environment only: with --no-config and --no-ignore-global it reads nothing else of ours.
    const child = startProcess(ripgrepPath, args, { cwd: root, environment: programEnvironment() });
    const matches: SearchMatch[] = [];
    let truncated = false;
    let stderr = '';
    const skipped: string[] = [];
    const smallFiles = new Set<string>();
    let sawDebug = false;
    let spawnError: Error | undefined;
    const stopWatching = request.signal ? onAbort(request.signal, () => child.kill()) : () => {};

    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (truncated) return;
      if (line.startsWith('{"type":"end"')) {
        // Searched to the end (a binary file stops at its first NUL byte, and says where).
        const end = JSON.parse(line) as RipgrepEndMessage;
        const searched = end.data.stats?.bytes_searched;
        if (end.data.binary_offset === null && searched !== undefined && largestSizeFor(searched) <= request.maxFileBytes) {
          smallFiles.add(normalizeRipgrepPath(decodeField(end.data.path)));
        }
        return;
      }
      if (!line.startsWith('{"type":"match"')) return;
      const message = JSON.parse(line) as RipgrepMatchMessage;
      const path = normalizeRipgrepPath(decodeField(message.data.path));
      if (!keep(path)) return;
      if (matches.length >= request.maxResults) {
        truncated = true;
        child.kill();
        if (mode === 'collect') matches.length = 0; // not the first ones: nobody may use them
        return;
      }
      matches.push({
        path,
        line: message.data.line_number ?? 0,
        text: decodeField(message.data.lines).replace(/\r?\n$/, ''),
      });
    });
    // `--debug` lines (asked for by a search that learns sizes) are read apart from the messages kept for errors.
    createInterface({ input: child.stderr }).on('line', (line) => {
      if (/^(?:rg: )?DEBUG\|/.test(line)) {
        sawDebug = true;
        const path = skippedForSize(line);
        if (path !== undefined) skipped.push(normalizeRipgrepPath(path));
      } else if (stderr.length < 64 * 1024) {
        stderr += `${line}\n`;
      }
    });
    child.on('error', (error) => {
      spawnError = error;
    });
    child.on('close', (code) => {
      stopWatching();
      try {
        throwIfStopped(request.signal);
      } catch (error) {
        reject(error);
        return;
      }
      if (spawnError) return reject(new RipgrepUnavailableError(ripgrepPath, spawnError));
      if (!truncated && code === 2 && /regex parse error|error parsing regex|not allowed in a regex/i.test(stderr)) {
        return reject(invalidPattern(request.pattern, summarizeRipgrepError(stderr)));
      }
      // 0: matches, 1: none, 2: some files could not be read (their lines are simply missing).
      if (!truncated && code !== 0 && code !== 1 && code !== 2) {
        return reject(new Error(`ripgrep exited with code ${String(code)}: ${stderr.trim()}`));
      }
      resolve({ matches, truncated, completed: !truncated, skippedForSize: skipped, sawDebug, smallFiles });
    });
  });
}

/** ripgrep could not be started; the caller falls back to the JavaScript engine. */
export class RipgrepUnavailableError extends AgentTeamError {
  readonly code = 'ripgrep-unavailable';
  constructor(ripgrepPath: string, cause: Error) {
    super(`could not run ripgrep at ${ripgrepPath}: ${cause.message}`, { cause });
  }
}

function decodeField(field: { text?: string; bytes?: string }): string {
  if (field.text !== undefined) return field.text;
  return Buffer.from(field.bytes ?? '', 'base64').toString('utf8');
}

function normalizeRipgrepPath(path: string): string {
  const posix = nodePath.sep === '\\' ? path.replace(/\\/g, '/') : path;
  return posix.startsWith('./') ? posix.slice(2) : posix;
}

/** ripgrep's regex errors span several lines with a caret diagram; the last line says what is wrong. */
function summarizeRipgrepError(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const error = lines.find((line) => line.startsWith('error:'));
  return error ? error.replace(/^error:\s*/, '') : (lines[lines.length - 1] ?? 'ripgrep rejected the pattern');
}
