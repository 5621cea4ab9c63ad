/**
 * When an edit to a `package.json` can make code run without anyone asking for it (see policy.ts for
 * the rule). Judged on content, not path: a version bump must stay a routine change, while any touch
 * to `scripts` (npm runs `preinstall`, `postinstall`, `prepare`… on install, and every script on `npm
 * run`) needs the user's explicit approval.
 */

/** `package.json` at any depth (workspaces' manifests are installed too). */
export function isPackageManifest(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.toLowerCase() === 'package.json';
}

/**
 * Fields whose change runs code or changes which code runs: lifecycle and run scripts, values those
 * scripts read (`config` becomes `npm_package_config_*`), executables linked into `.bin`, a native
 * build on install (`gypfile`), which packages get installed and run their scripts (`workspaces`), the
 * package manager Corepack downloads and runs (`packageManager`), and git-hook runners configured in
 * the manifest (husky 4, simple-git-hooks, lint-staged, pre-commit), and which dependencies may run
 * install scripts (`pnpm` settings such as `onlyBuiltDependencies`, Bun's `trustedDependencies`).
 */
export const codeRunningManifestFields: readonly string[] = Object.freeze([
  'scripts',
  'config',
  'bin',
  'gypfile',
  'workspaces',
  'packageManager',
  'husky',
  'simple-git-hooks',
  'lint-staged',
  'pre-commit',
  'pnpm',
  'trustedDependencies',
]);

/**
 * Fields holding dependency specifiers. A changed registry version (`^1.2.3`, `latest`, `npm:x@2`)
 * is routine; a specifier that fetches code from anywhere else (git, a URL, a path, `user/repo`) can
 * run that code's `prepare` script on install, so it needs approval.
 */
export const dependencyManifestFields: readonly string[] = Object.freeze([
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'overrides',
  'resolutions',
]);

/**
 * Why the edit from `before` to `after` (null: no such file) needs approval, or undefined when it only
 * changes fields that run nothing. Content that is not a JSON object cannot be judged, so it needs
 * approval whenever it changed.
 */
export function manifestApprovalReason(before: string | null, after: string | null): string | undefined {
  if (before === after) return undefined;
  const old = before === null ? {} : parseManifest(before);
  const next = after === null ? {} : parseManifest(after);
  if (old === undefined || next === undefined) return 'the manifest is not valid JSON, so its effect on scripts cannot be checked';
  const changed = codeRunningManifestFields.filter((field) => JSON.stringify(old[field]) !== JSON.stringify(next[field]));
  if (changed.length > 0)
    return `the edit changes ${changed.map((field) => `"${field}"`).join(', ')}, which can run code on install, commit or npm run`;
  for (const field of dependencyManifestFields) {
    const previous = new Map(stringLeaves(old[field]));
    const fetched = stringLeaves(next[field]).find(([key, spec]) => previous.get(key) !== spec && !isRegistrySpecifier(spec));
    if (fetched)
      return `the edit makes "${field}" fetch ${JSON.stringify(fetched[1])} from outside the npm registry, whose install scripts would run`;
  }
  return undefined;
}

function parseManifest(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Every string inside `value`, keyed by its path of property names (`react`, `foo>bar`, `overrides/x`). */
function stringLeaves(value: unknown, prefix = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[prefix, value]];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => stringLeaves(child, `${prefix}\0${key}`));
}

/**
 * Versions, ranges and dist-tags (`^1.2`, `>=2 <3`, `1.x`, `latest`), npm aliases of them, workspace
 * packages (their scripts are in the repository, under this same rule) and `$name` override references.
 */
export function isRegistrySpecifier(spec: string): boolean {
  const trimmed = spec.trim();
  if (trimmed.startsWith('workspace:') || trimmed.startsWith('$')) return true;
  if (trimmed.startsWith('npm:')) {
    const aliased = trimmed.slice('npm:'.length);
    const at = aliased.lastIndexOf('@');
    return at <= 0 || isRegistrySpecifier(aliased.slice(at + 1));
  }
  return /^[0-9A-Za-z.^~<>=|*+\s-]*$/.test(trimmed);
}
