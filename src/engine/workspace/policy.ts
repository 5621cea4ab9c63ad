import picomatch from 'picomatch/posix';

/**
 * What the agents may see and change in a workspace. Patterns are globs (picomatch syntax, dotfiles
 * included, case-insensitive) matched against workspace-relative POSIX paths such as `src/app.ts`.
 * Case-insensitive on purpose: `.ENV` on a case-insensitive file system is the same secret.
 *
 * Every rule is checked against both names of a file: the path as typed and the path it resolves to on
 * disk after every symbolic link along it (see `Workspace.realPath` and path-rules.ts). A link such as
 * `notes.txt -> .env` or `hooks -> .git/hooks` must not lend a secret or a hook an innocent name.
 *
 * An edit needs the user's explicit approval when the file matches `approvalRequiredPatterns` or
 * `sensitivePatterns`, or when it is a package manifest (`scriptsApprovalPatterns`, `package.json`) and
 * the edit can make code run: any change to `scripts` (npm runs them on install, test, run) or to the other
 * fields that run code (`config`, `bin`, `gypfile`, `workspaces`, `packageManager`, git-hook runners…), or a
 * dependency fetched from outside the npm registry (git, URL, path: its install scripts would run). A
 * manifest that cannot be parsed counts as such a change; a registry dependency bump does not need approval.
 */
export interface WorkspacePolicy {
  /** Directory names skipped at any depth by Glob, Grep and listings. Default: `.git`, `.hg`, `.svn`, `.jj`, `node_modules`. */
  excludedDirectories: readonly string[];
  /** Honour `.gitignore` files (the root's and nested ones) in Glob and Grep. Default: true. */
  respectGitignore: boolean;
  /** Files whose content is never read unless allowed (secrets). Default: `defaultSensitivePatterns`. */
  sensitivePatterns: readonly string[];
  /** Exceptions to `sensitivePatterns`: files that look secret but are meant to be read. Default: `.env.example`-style templates. */
  allowedSensitivePatterns: readonly string[];
  /**
   * Edits to these always need explicit per-file approval, whatever auto-apply says; so do edits to
   * sensitive files (they can change what tools run). Default: `defaultApprovalRequiredPatterns`.
   */
  approvalRequiredPatterns: readonly string[];
  /**
   * Package manifests: an edit that can make code run (its `scripts` and the other fields that run code,
   * a dependency fetched from outside the npm registry; package-manifest.ts) or that leaves the manifest
   * unparseable needs explicit approval; a dependency bump does not. Default: `**\/package.json`.
   */
  scriptsApprovalPatterns: readonly string[];
  /** Never written, not even after approval (version-control internals). Default: `defaultProtectedPatterns`. */
  protectedPatterns: readonly string[];
  /** Most bytes one Read call returns; the rest is read with a later offset. Default: 256 KiB. */
  maxReadBytesPerCall: number;
  /** Files larger than this are not read or searched at all. Default: 10 MiB. */
  maxFileBytes: number;
  /** Edit and Write refuse files larger than this, before or after the edit. Default: 2 MiB. */
  maxEditFileBytes: number;
}

export const defaultSensitivePatterns: readonly string[] = Object.freeze([
  '**/.env',
  '**/.env.*',
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/*.jks',
  '**/*.keystore',
  '**/id_rsa*',
  '**/id_dsa*',
  '**/id_ecdsa*',
  '**/id_ed25519*',
  '**/.ssh/**',
  '**/.aws/credentials',
  '**/.netrc',
  '**/.npmrc',
  '**/.pypirc',
  '**/.git-credentials',
  // The CLI's run history: earlier conversations, prompts and answers; agents never read it.
  '**/.agent-team/runs/**',
  // Remote URLs can carry credentials (https://user:token@host/...).
  '**/.git/config',
  '**/.git/config.worktree',
  '**/.git/modules/**/config',
]);

/** Templates that document which variables exist; they hold no secrets by convention. */
export const defaultAllowedSensitivePatterns: readonly string[] = Object.freeze(['**/.env.example', '**/.env.sample', '**/.env.template']);

/**
 * Configuration that can make the editor or CI run code or change the agents' own permissions
 * (an agent that writes `.vscode/settings.json` can approve itself: CVE-2025-53773).
 */
export const defaultApprovalRequiredPatterns: readonly string[] = Object.freeze([
  // All of it, at any depth: settings, tasks, launch configurations, MCP servers (mcp.json), extensions.
  '**/.vscode/**',
  '*.code-workspace',
  '.github/workflows/**',
  '.github/agents/**',
  '.agent-team/**',
  '.claude/**',
  // Git hooks managed in the tree (husky): they run on the next commit or push.
  '**/.husky/**',
  // Hooks directories that `core.hooksPath` commonly points at.
  '**/.githooks/**',
  // What git runs programs by: attributes switch a file onto a filter or diff driver, submodules name
  // addresses a later `git submodule update` fetches (transports included).
  '**/.gitattributes',
  '.gitmodules',
  // Servers Claude Code and VS Code start from the workspace, and direnv's script (run on entering the folder).
  '.mcp.json',
  '**/.envrc',
]);

export const defaultProtectedPatterns: readonly string[] = Object.freeze(['**/.git', '**/.git/**', '**/.hg/**', '**/.svn/**', '**/.jj/**']);

export const defaultWorkspacePolicy: Readonly<WorkspacePolicy> = Object.freeze({
  excludedDirectories: Object.freeze(['.git', '.hg', '.svn', '.jj', 'node_modules']),
  respectGitignore: true,
  sensitivePatterns: defaultSensitivePatterns,
  allowedSensitivePatterns: defaultAllowedSensitivePatterns,
  approvalRequiredPatterns: defaultApprovalRequiredPatterns,
  scriptsApprovalPatterns: Object.freeze(['**/package.json']),
  protectedPatterns: defaultProtectedPatterns,
  maxReadBytesPerCall: 256 * 1024,
  maxFileBytes: 10 * 1024 * 1024,
  maxEditFileBytes: 2 * 1024 * 1024,
});

/** The default policy with `overrides` laid over it (lists are replaced, not merged). */
export function resolvePolicy(overrides?: Partial<WorkspacePolicy>): WorkspacePolicy {
  return { ...defaultWorkspacePolicy, ...overrides };
}

/** Compiled form of a policy's path lists. */
export interface PolicyMatcher {
  readonly policy: WorkspacePolicy;
  /** The sensitive pattern `path` matches, or undefined when it may be read. */
  sensitivePattern(path: string): string | undefined;
  requiresApproval(path: string): boolean;
  /** True for a package manifest whose code-running changes need approval (package-manifest.ts). */
  guardsScripts(path: string): boolean;
  isProtected(path: string): boolean;
  isExcludedDirectory(name: string): boolean;
}

const matcherCache = new WeakMap<WorkspacePolicy, PolicyMatcher>();

/** How many paths' answers a matcher keeps; past it, it starts again (a walk of a large tree asks once per file). */
const rememberedPaths = 4096;

export function policyMatcher(policy: WorkspacePolicy = defaultWorkspacePolicy): PolicyMatcher {
  const cached = matcherCache.get(policy);
  if (cached) return cached;
  const compile = (patterns: readonly string[]) =>
    patterns.map((pattern) => ({ pattern, test: picomatch(pattern, { dot: true, nocase: true }) }));
  const sensitive = compile(policy.sensitivePatterns);
  const allowed = compile(policy.allowedSensitivePatterns);
  const approval = compile(policy.approvalRequiredPatterns);
  const protectedPaths = compile(policy.protectedPatterns);
  const scriptManifests = compile(policy.scriptsApprovalPatterns);
  const excluded = new Set(policy.excludedDirectories.map((name) => name.toLowerCase()));
  // Every file operation asks about both names of its file, each against every pattern (a `Read` asks
  // four times); the answers for the paths asked about lately are kept (B2 in docs/performance.md).
  const sensitiveByPath = new Map<string, string | null>();
  const matcher: PolicyMatcher = {
    policy,
    sensitivePattern(path) {
      const known = sensitiveByPath.get(path);
      if (known !== undefined) return known ?? undefined;
      const hit = sensitive.find((entry) => entry.test(path));
      const pattern = !hit || allowed.some((entry) => entry.test(path)) ? null : hit.pattern;
      if (sensitiveByPath.size >= rememberedPaths) sensitiveByPath.clear();
      sensitiveByPath.set(path, pattern);
      return pattern ?? undefined;
    },
    requiresApproval: (path) => approval.some((entry) => entry.test(path)),
    guardsScripts: (path) => scriptManifests.some((entry) => entry.test(path)),
    isProtected: (path) => protectedPaths.some((entry) => entry.test(path)),
    isExcludedDirectory: (name) => excluded.has(name.toLowerCase()),
  };
  matcherCache.set(policy, matcher);
  return matcher;
}
