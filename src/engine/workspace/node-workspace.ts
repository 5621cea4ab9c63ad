import { closeSync, constants, fstatSync } from 'node:fs';
import { mkdir, stat as statFile, writeFile } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { type Clock } from '../clock.js';
import { WorkspaceError } from '../errors.js';
import { NodeConfinement } from './node-confinement.js';
import { throwIfStopped } from '../abort.js';
import { walkFileBatches, type WalkContext } from './node-walk.js';
import { cleanGlobPattern } from './glob-pattern.js';
import { compileGlob, globLiteralPrefix } from './glob/glob-matcher.js';
import { comparePaths, joinWorkspacePath, relativeTo } from './paths.js';
import { defaultWorkspacePolicy, policyMatcher, type WorkspacePolicy } from './policy.js';
import { findRipgrepOnPath } from './search/find-ripgrep.js';
import { searchWithJavaScript, type EngineSearchRequest } from './search/javascript-search.js';
import { LargeFileMemory } from './search/large-files.js';
import { RipgrepUnavailableError } from './search/ripgrep-run.js';
import { searchWithRipgrep } from './search/ripgrep-search.js';
import { readOpenFile } from './read-open-file.js';
import { distrustProgramsUnder } from '../program-search-path.js';
import { decodeText, formatBytes, notFound, tooLarge } from './text-file.js';
import {
  defaultGlobMaxResults,
  defaultSearchMaxResults,
  type FileStat,
  type GlobOptions,
  type GlobResult,
  type ReadOptions,
  type RealPath,
  type SearchOptions,
  type SearchResult,
  type Workspace,
} from './workspace.js';

export interface NodeWorkspaceOptions {
  /** Excluded directories, gitignore, size limits, protected paths. Default: `defaultWorkspacePolicy`. */
  policy?: WorkspacePolicy;
  /**
   * The ripgrep binary for `search`. Default (undefined): `rg` on PATH if there is one. null: always the
   * JavaScript engine, which returns the same results, more slowly.
   */
  ripgrepPath?: string | null;
  /** Time, for how long what a search learned about large files is used. Default: the system clock. */
  clock?: Clock;
}

/** The `Workspace` on the local file system (node:fs), for the CLI and the tests. */
export class NodeWorkspace implements Workspace {
  readonly root: string;
  readonly policy: WorkspacePolicy;
  private readonly confinement: NodeConfinement;
  private readonly walkContext: WalkContext;
  private ripgrep: Promise<string | null>;
  /** The files over the size limit that ripgrep found, so that most searches need not check every size. */
  private readonly largeFiles: LargeFileMemory;

  constructor(root: string, options: NodeWorkspaceOptions = {}) {
    this.confinement = new NodeConfinement(root);
    this.root = this.confinement.root;
    // The repository's own folders on PATH (direnv's `PATH_add bin`) never provide git, gh or rg.
    distrustProgramsUnder(this.root);
    this.policy = options.policy ?? defaultWorkspacePolicy;
    this.walkContext = { root: this.root, matcher: policyMatcher(this.policy) };
    this.ripgrep = options.ripgrepPath === undefined ? findRipgrepOnPath() : Promise.resolve(options.ripgrepPath);
    this.largeFiles = new LargeFileMemory(options.clock);
  }

  /** Which engine `search` uses: `ripgrep` when a binary was found or injected. */
  async searchEngine(): Promise<'ripgrep' | 'javascript'> {
    return (await this.ripgrep) === null ? 'javascript' : 'ripgrep';
  }

  async readText(path: string, options: ReadOptions = {}): Promise<string> {
    const relative = this.confinement.toRelative(path);
    const opened = options.resolved ? this.confinement.openResolved(relative) : this.confinement.openExisting(relative);
    if (opened === null) throw notFound(relative);
    try {
      // Asked of the open file, not the path: what is read is what was checked.
      const info = fstatSync(opened.fd);
      if (info.isDirectory()) {
        throw new WorkspaceError(
          'invalid',
          `${relative || 'The workspace root'} is a directory, not a file. Use Glob to list its files.`,
          relative,
        );
      }
      if (!info.isFile()) throw new WorkspaceError('invalid', `${relative} is not a regular file.`, relative);
      if (info.size > this.policy.maxFileBytes) throw tooLarge(relative, info.size, this.policy.maxFileBytes, 'reading');
      const bytes = await readOpenFile(opened.fd, info.size, this.policy.maxFileBytes, options.signal);
      if (bytes === null)
        throw new WorkspaceError(
          'too-large',
          `${relative} grew past the ${formatBytes(this.policy.maxFileBytes)} limit for reading while it was read.`,
          relative,
        );
      return decodeText(bytes, relative);
    } finally {
      closeSync(opened.fd);
    }
  }

  async stat(path: string): Promise<FileStat | null> {
    const real = await this.confinement.resolveExisting(this.confinement.toRelative(path));
    if (real === null) return null;
    const info = await statFile(real);
    return { type: info.isDirectory() ? 'directory' : 'file', size: info.isDirectory() ? 0 : info.size, mtimeMs: info.mtimeMs };
  }

  realPath(path: string): Promise<RealPath> {
    return this.confinement.resolveReal(this.confinement.toRelative(path));
  }

  async glob(pattern: string, options: GlobOptions = {}): Promise<GlobResult> {
    const base = await this.existingDirectory(options.path ?? '');
    const cleaned = cleanGlobPattern(pattern, this.root, base);
    const matches = await compileGlob(cleaned);
    // Walk only below the pattern's literal prefix (`src/**/*.ts` walks `src`).
    const literalPrefix = globLiteralPrefix(cleaned);
    const start = joinWorkspacePath(base, literalPrefix);
    const maxResults = options.maxResults ?? defaultGlobMaxResults;
    const paths: string[] = [];
    const startInfo = literalPrefix === '' ? { type: 'directory' } : await this.stat(start).catch(() => null);
    if (startInfo?.type === 'file') {
      if (matches(relativeTo(base, start))) paths.push(start);
    } else if (startInfo?.type === 'directory') {
      walk: for await (const batch of walkFileBatches(this.walkContext, start, options.signal)) {
        for (const file of batch) {
          if (!matches(relativeTo(base, file))) continue;
          paths.push(file);
          if (paths.length > maxResults) break walk;
        }
      }
    }
    throwIfStopped(options.signal);
    return { paths: paths.slice(0, maxResults), truncated: paths.length > maxResults };
  }

  async search(pattern: string, options: SearchOptions = {}): Promise<SearchResult> {
    const start = this.confinement.toRelative(options.path ?? '');
    const info = await this.stat(start);
    if (info === null) throw notFound(start);
    const request: EngineSearchRequest = {
      pattern,
      start,
      startIsFile: info.type === 'file',
      glob: options.glob,
      caseInsensitive: options.caseInsensitive ?? false,
      maxResults: options.maxResults ?? defaultSearchMaxResults,
      maxFileBytes: this.policy.maxFileBytes,
      signal: options.signal,
    };
    const ripgrepPath = await this.ripgrep;
    if (ripgrepPath !== null) {
      try {
        return {
          ...sortResult(await searchWithRipgrep(ripgrepPath, this.walkContext, request, { largeFiles: this.largeFiles })),
          noLinksBelowStart: true,
        };
      } catch (error) {
        if (!(error instanceof RipgrepUnavailableError)) throw error;
        this.ripgrep = Promise.resolve(null); // a binary that cannot start will not start next time either
      }
    }
    return { ...sortResult(await searchWithJavaScript(this.walkContext, request)), noLinksBelowStart: true };
  }

  async writeText(path: string, content: string): Promise<void> {
    const relative = this.confinement.toRelative(path);
    const target = await this.confinement.resolveWritable(relative, this.walkContext.matcher);
    const existing = await statFile(target).catch(() => null);
    if (existing?.isDirectory()) throw new WorkspaceError('invalid', `${relative} is a directory, not a file.`, relative);
    await mkdir(nodePath.dirname(target), { recursive: true });
    // A plain overwrite keeps the file's mode (an executable script stays executable). O_NOFOLLOW: a link
    // put in the target's place after it was resolved is refused (ELOOP), not written through.
    try {
      await writeFile(target, content, { encoding: 'utf8', flag: writeFlags });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
      throw new WorkspaceError('conflict', `${relative} became a symbolic link while it was being written; nothing was written.`, relative);
    }
  }

  private async existingDirectory(path: string): Promise<string> {
    const relative = this.confinement.toRelative(path);
    const info = await this.stat(relative);
    if (info === null) throw notFound(relative);
    if (info.type !== 'directory') throw new WorkspaceError('invalid', `${relative} is a file, not a directory.`, relative);
    return relative;
  }
}

const writeFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0);

/** Both engines already produce this order; sorting again guards the contract if one ever drifts. */
function sortResult(result: SearchResult): SearchResult {
  const matches = [...result.matches].sort((a, b) => comparePaths(a.path, b.path) || a.line - b.line);
  return { matches, truncated: result.truncated };
}
