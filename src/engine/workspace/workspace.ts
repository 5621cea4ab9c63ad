/**
 * The files the agents work on, as the engine sees them. Host-neutral: the CLI and the tests use
 * `NodeWorkspace` (node:fs); the extension implements the same interface over `vscode.workspace.fs`.
 *
 * Every path at this interface is workspace-relative POSIX (`src/app.ts`; `''` is the root). Hosts also
 * accept an absolute path inside the root, and refuse anything that resolves outside it — `..`, absolute
 * paths elsewhere, and symlinks leading out — with a `WorkspaceError` of kind `outside-workspace`.
 * Listings and searches use one order: `comparePaths` (component by component), then line number.
 */
export interface Workspace {
  /** The root directory, absolute, in the host's own path syntax. */
  readonly root: string;
  /**
   * The whole file as UTF-8 text, byte for byte (BOM and line endings kept). Throws `WorkspaceError`:
   * `not-found`, `binary` (a NUL byte in the first 8 KB, or not valid UTF-8), `too-large`, `outside-workspace`.
   */
  readText(path: string, options?: ReadOptions): Promise<string>;
  /** What is at `path`, or null when nothing is. */
  stat(path: string): Promise<FileStat | null>;
  /**
   * Where `path` really leads: every symbolic link along it followed, also for a file that does not exist
   * yet under a linked directory. The policy is checked on this as well as on the path as typed, so that
   * a link cannot give a secret, `.git/hooks` or `.vscode` an innocent name. Throws `outside-workspace`
   * when it leads out of the root.
   */
  realPath(path: string): Promise<RealPath>;
  /** Files whose path relative to `options.path` matches the glob `pattern`, sorted. */
  glob(pattern: string, options?: GlobOptions): Promise<GlobResult>;
  /** Lines matching the regular expression `pattern`, sorted by path then line. */
  search(pattern: string, options?: SearchOptions): Promise<SearchResult>;
  /**
   * Writes a whole file, creating parent directories. Only the change-set apply calls this — tools never
   * write. Refuses protected paths (`.git/**`) with kind `read-only`.
   */
  writeText(path: string, content: string): Promise<void>;
  /**
   * Files an editor holds with unsaved changes, as it holds them (hosts with editors): what the agents
   * read, so commands in a scratch copy see them too. Default: none.
   */
  unsavedFiles?(): Array<{ path: string; content: string }>;
}

export interface ReadOptions {
  signal?: AbortSignal;
  /**
   * `path` is a real path the caller has just resolved (`realPath`): a host that can tell which file an
   * open handle is (Linux) opens it without resolving it again when it is still that file, and resolves it
   * again as any path otherwise. Default false.
   */
  resolved?: boolean;
}

export interface RealPath {
  /** Workspace-relative POSIX path after following every link; equal to the input when none is involved. */
  path: string;
  /** True when a link along the way points at nothing: nothing can be read or written through it. */
  dangling: boolean;
}

export interface FileStat {
  type: 'file' | 'directory';
  /** Bytes (0 for directories). */
  size: number;
  /** Last modification, milliseconds since the epoch. */
  mtimeMs: number;
}

export interface GlobOptions {
  /** The directory to search under (workspace-relative); the pattern is relative to it. Default: the root. */
  path?: string;
  /** Return at most this many paths; `truncated` says more matched. Default: 1000. */
  maxResults?: number;
  signal?: AbortSignal;
}

export interface GlobResult {
  paths: string[];
  /** True when more paths matched than `maxResults`. */
  truncated: boolean;
}

export interface SearchOptions {
  /** A directory or a single file to search (workspace-relative). Default: the root. */
  path?: string;
  /**
   * Only files matching this glob, ripgrep style: a pattern without `/` matches the file name at any
   * depth (`*.ts`), one with `/` matches the path from the root (`src/**\/*.ts`). Default: all files.
   */
  glob?: string;
  /** Return at most this many matching lines; `truncated` says more matched. Default: 1000. */
  maxResults?: number;
  /** Match regardless of case. Default: false. */
  caseInsensitive?: boolean;
  signal?: AbortSignal;
}

export interface SearchMatch {
  path: string;
  /** 1-based line number. */
  line: number;
  /** The matching line without its line terminator. */
  text: string;
}

export interface SearchResult {
  matches: SearchMatch[];
  /** True when more lines matched than `maxResults`. */
  truncated: boolean;
  /**
   * True when the search followed no symbolic link below its start (ripgrep and the JavaScript walk follow
   * none): each match's real path is then the start's real path and the rest of the match's own, so the
   * caller need not ask the disk where each file leads. Absent: not known (an editor's open documents).
   */
  noLinksBelowStart?: boolean;
}

export const defaultGlobMaxResults = 1000;
export const defaultSearchMaxResults = 1000;
