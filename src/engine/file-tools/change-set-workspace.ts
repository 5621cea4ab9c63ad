import { type ChangeSet } from '../changes/change-set.js';
import { type FileChangeSnapshot } from '../changes/types.js';
import { WorkspaceError } from '../errors.js';
import { compileGlob } from '../workspace/glob/glob-matcher.js';
import { cleanGlobPattern } from '../workspace/glob-pattern.js';
import { throwIfStopped } from '../abort.js';
import { comparePaths, isWithin, relativeTo, toWorkspacePath } from '../workspace/paths.js';
import { PathRules } from '../workspace/path-rules.js';
import { defaultWorkspacePolicy, type WorkspacePolicy } from '../workspace/policy.js';
import { SearchPacer } from '../workspace/search/search-pacer.js';
import { assertSearchPatternLength, compileSearchPattern, searchGlobMatcher, searchText } from '../workspace/search/search-pattern.js';
import { tooLarge } from '../workspace/text-file.js';
import {
  defaultGlobMaxResults,
  defaultSearchMaxResults,
  type FileStat,
  type GlobOptions,
  type GlobResult,
  type RealPath,
  type SearchMatch,
  type SearchOptions,
  type SearchResult,
  type Workspace,
} from '../workspace/workspace.js';

/**
 * One task's view of the workspace: the files on disk with the task's own pending proposals laid over
 * them, so its Read, Grep and Glob see its edits while the disk (and every other task) does not. The
 * agent-facing policy lives here: sensitive files are not read (and left out of search results), and
 * edits become proposals in the change set — `writeText` is refused; `update` is how tools edit.
 * Every rule is checked on the path as typed and on where it really leads (`realPath`), so a symbolic
 * link inside the workspace cannot carry a secret's content, or an edit to `.git/hooks`, under its name.
 */
export class ChangeSetWorkspace implements Workspace {
  readonly root: string;
  readonly policy: WorkspacePolicy;
  private readonly rules: PathRules;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(
    readonly inner: Workspace,
    readonly changeSet: ChangeSet,
    policy: WorkspacePolicy = defaultWorkspacePolicy,
  ) {
    this.root = inner.root;
    this.policy = policy;
    this.rules = new PathRules(policy);
  }

  /** The workspace-relative form of a path a model gave (relative, or absolute inside the root). */
  resolve(path: string): string {
    return toWorkspacePath(this.root, path);
  }

  async readText(path: string, options: { signal?: AbortSignal } = {}): Promise<string> {
    const relative = this.resolve(path);
    const proposed = this.changeSet.proposedContent(relative);
    if (proposed !== undefined) {
      this.rules.assertReadable(relative, this.changeSet.fileChange(relative).target ?? relative);
      return proposed;
    }
    this.rules.assertReadable(relative, relative);
    const real = await this.inner.realPath(relative);
    this.rules.assertReadable(relative, real.path);
    if (real.dangling)
      throw new WorkspaceError('not-found', `${relative} is a symbolic link to ${real.path}, which does not exist.`, relative);
    return this.readResolved(relative, real, options);
  }

  realPath(path: string): Promise<RealPath> {
    return this.inner.realPath(this.resolve(path));
  }

  async stat(path: string): Promise<FileStat | null> {
    const relative = this.resolve(path);
    const proposed = this.changeSet.proposedContent(relative);
    if (proposed !== undefined) {
      const onDisk = await this.inner.stat(relative);
      return { type: 'file', size: Buffer.byteLength(proposed, 'utf8'), mtimeMs: onDisk?.mtimeMs ?? 0 };
    }
    return this.inner.stat(relative);
  }

  async glob(pattern: string, options: GlobOptions = {}): Promise<GlobResult> {
    const base = this.resolve(options.path ?? '');
    const maxResults = options.maxResults ?? defaultGlobMaxResults;
    const matches = await compileGlob(cleanGlobPattern(pattern, this.root, base));
    const created = this.createdPaths().filter((path) => isWithin(base, path) && path !== base && matches(relativeTo(base, path)));
    let inner: GlobResult = { paths: [], truncated: false };
    try {
      inner = await this.inner.glob(pattern, { ...options, path: base, maxResults });
    } catch (error) {
      // A directory that so far exists only in this task's proposals is not on disk.
      if (!(error instanceof WorkspaceError && error.kind === 'not-found' && created.length > 0)) throw error;
    }
    // A listing shows names, secrets' included; only what a link leads to is judged here.
    const fromDisk = await this.visible(inner.paths, { hideSensitiveNames: false });
    const all = [...new Set([...fromDisk, ...created])].sort(comparePaths);
    return { paths: all.slice(0, maxResults), truncated: inner.truncated || all.length > maxResults };
  }

  async search(pattern: string, options: SearchOptions = {}): Promise<SearchResult> {
    assertSearchPatternLength(pattern);
    const start = this.resolve(options.path ?? '');
    // The start's real path: the root's is ''. Unknown for a start only this task's proposals hold.
    let realStart: string | undefined = start === '' ? '' : undefined;
    if (start !== '' && this.changeSet.proposedContent(start) === undefined) {
      this.rules.assertReadable(start, start);
      realStart = (await this.inner.realPath(start)).path;
      this.rules.assertReadable(start, realStart);
    }
    const maxResults = options.maxResults ?? defaultSearchMaxResults;
    // Disk results for files this task changed, and for sensitive files (by either name), are replaced
    // or dropped; ask the disk for more until enough remain (or there are no more).
    const fromDisk: SearchMatch[] = [];
    let innerTruncated = false;
    if (start === '' || (await this.inner.stat(start)) !== null) {
      let ask = maxResults;
      for (;;) {
        const result = await this.inner.search(pattern, { ...options, path: start, maxResults: ask });
        const below = result.noLinksBelowStart && realStart !== undefined ? realStart : undefined;
        const realOf = below === undefined ? undefined : (path: string) => realBelowStart(below, start, path);
        const shown = new Set(
          await this.visible(
            result.matches.map((match) => match.path),
            { hideSensitiveNames: true, realOf },
          ),
        );
        const kept = result.matches.filter((match) => shown.has(match.path) && this.changeSet.proposedContent(match.path) === undefined);
        if (!result.truncated || kept.length >= maxResults) {
          fromDisk.push(...kept);
          innerTruncated = result.truncated;
          break;
        }
        ask += result.matches.length - kept.length;
      }
    }
    const fromProposals = await this.searchProposals(pattern, start, options, maxResults + 1);
    const all = [...fromDisk, ...fromProposals].sort((a, b) => comparePaths(a.path, b.path) || a.line - b.line);
    return { matches: all.slice(0, maxResults), truncated: innerTruncated || all.length > maxResults };
  }

  /** Tools never write: edits go through `update` into the change set. */
  async writeText(path: string): Promise<void> {
    throw new WorkspaceError('read-only', `${path}: agents propose edits to a change set; they never write files directly.`, path);
  }

  /**
   * Proposes new content for a file, computed from its current content in this view (null when the file
   * does not exist). Calls for the same file run one after another, so two edits in one turn never lose
   * each other. Returns the file's proposal, or undefined when the edit restored the original.
   */
  async update(path: string, transform: (current: string | null) => string): Promise<FileChangeSnapshot | undefined> {
    const relative = this.resolve(path);
    if (relative === '') throw new WorkspaceError('invalid', 'The workspace root is a directory, not a file.', relative);
    this.rules.assertWritable(relative, relative);
    const previous = this.locks.get(relative) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.updateNow(relative, transform));
    this.locks.set(relative, run);
    try {
      return await run;
    } finally {
      if (this.locks.get(relative) === run) this.locks.delete(relative);
    }
  }

  private async updateNow(relative: string, transform: (current: string | null) => string): Promise<FileChangeSnapshot | undefined> {
    const limit = this.policy.maxEditFileBytes;
    // Where the edit would really land, resolved now; the change set records it and apply checks it again.
    const real = await this.inner.realPath(relative);
    this.rules.assertWritable(relative, real.path);
    if (real.dangling) {
      throw new WorkspaceError(
        'invalid',
        `${relative} leads through a symbolic link to ${real.path}, which does not exist; nothing can be written through it.`,
        relative,
      );
    }
    let base: string | null = null;
    if (!this.changeSet.isOpen(relative)) {
      const onDisk = await this.inner.stat(relative);
      if (onDisk?.type === 'directory') throw new WorkspaceError('invalid', `${relative} is a directory, not a file.`, relative);
      if (onDisk && onDisk.size > limit) throw tooLarge(relative, onDisk.size, limit, 'editing');
      if (onDisk) {
        this.rules.assertReadable(relative, real.path);
        base = await this.readResolved(relative, real);
      }
    }
    const current = this.changeSet.proposedContent(relative) ?? base;
    const next = transform(current);
    if (next.includes('\0'))
      throw new WorkspaceError('binary', `The new content of ${relative} contains NUL bytes; only text files can be edited.`, relative);
    const size = Buffer.byteLength(next, 'utf8');
    if (size > limit) throw tooLarge(relative, size, limit, 'editing');
    return this.changeSet.propose(relative, { baseContent: base, proposedContent: next, target: real.path });
  }

  /**
   * Reads a file where it really is, so that a link changed after the policy looked at it cannot send
   * the read elsewhere; errors keep the name the agent used.
   */
  private async readResolved(relative: string, real: RealPath, options: { signal?: AbortSignal } = {}): Promise<string> {
    // What was judged is what is read: the host opens this real path without resolving it again.
    const readOptions = { ...options, resolved: true };
    if (real.path === relative) return this.inner.readText(relative, readOptions);
    try {
      return await this.inner.readText(real.path, readOptions);
    } catch (error) {
      if (!(error instanceof WorkspaceError)) throw error;
      throw new WorkspaceError(error.kind, `${relative} (a symbolic link to ${real.path}): ${error.message}`, relative);
    }
  }

  /**
   * The paths of `paths` a search or listing may show: none that leads outside the workspace, or through
   * a link to a secret or to version-control internals; secrets by their own name only if asked to.
   */
  private async visible(
    paths: readonly string[],
    options: { hideSensitiveNames: boolean; realOf?: (path: string) => string | undefined },
  ): Promise<string[]> {
    const distinct = [...new Set(paths)];
    const shown = await Promise.all(
      distinct.map(async (path) => {
        if (this.rules.hidesFromSearch(path, path)) return !options.hideSensitiveNames;
        // Where the search says it followed no link, the real path needs no question to the disk (B7).
        const known = options.realOf?.(path);
        if (known !== undefined) return !this.rules.hidesFromSearch(path, known);
        try {
          return !this.rules.hidesFromSearch(path, (await this.inner.realPath(path)).path);
        } catch (error) {
          // Leads outside the workspace, or vanished: not shown.
          if (error instanceof WorkspaceError) return false;
          throw error;
        }
      }),
    );
    return distinct.filter((_path, index) => shown[index]);
  }

  private hidesProposal(path: string): boolean {
    return this.rules.hidesFromSearch(path, this.changeSet.fileChange(path).target ?? path);
  }

  /** Files this task creates (proposed, not on disk before). */
  private createdPaths(): string[] {
    return this.changeSet.openPaths().filter((path) => this.changeSet.fileChange(path).isNew);
  }

  /** Paced like the JavaScript search (see search-pacer.ts): a stop lands within one slice of a proposal. */
  private async searchProposals(pattern: string, start: string, options: SearchOptions, limit: number): Promise<SearchMatch[]> {
    const includes = await searchGlobMatcher(options.glob);
    const paths = this.changeSet
      .openPaths()
      .filter((path) => isWithin(start, path) && (path === start || includes(path)) && !this.hidesProposal(path));
    if (paths.length === 0) return [];
    const compiled = await compileSearchPattern(pattern, options.caseInsensitive ?? false);
    const pacer = new SearchPacer(options.signal);
    const found: SearchMatch[] = [];
    for (const path of paths) {
      await searchText(path, this.changeSet.proposedContent(path) ?? '', compiled, found, limit, pacer);
      if (found.length >= limit) break;
    }
    throwIfStopped(options.signal);
    return found;
  }
}

/**
 * The real path of `path`, found by a search that followed no link below `start`, whose real path is
 * `realStart`; undefined for a path not under `start` (then the disk is asked).
 */
function realBelowStart(realStart: string, start: string, path: string): string | undefined {
  if (!isWithin(start, path)) return undefined;
  const rest = relativeTo(start, path);
  if (realStart === '') return rest;
  return rest === '' ? realStart : `${realStart}/${rest}`;
}
