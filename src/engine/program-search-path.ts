/**
 * Where a program the engine starts by name (git, gh, rg) may be found. The user's PATH can point into the
 * repository — direnv's `PATH_add bin`, `./node_modules/.bin` when agent-team runs from an npm script, a
 * `.` or an empty entry — and the repository then chooses what runs as `git`: unsandboxed, as the user, on
 * every status of every scratch copy. So a program is looked for only in PATH's absolute entries that
 * lead (after links) outside every folder whose content is not the user's own: the workspaces opened in
 * this process, and the folder the program runs in.
 *
 * The workspaces are kept process-wide, against STYLE.md's "no singletons", on purpose: a program name can
 * be started from anywhere in the engine (the launcher's callers do not all know the workspace), and a
 * folder once opened here stays untrusted for programs for the life of the process, which only ever adds.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';

const distrustedFolders = new Set<string>();

/** Programs are never taken from under `folder` (a workspace), by its path and its real path. */
export function distrustProgramsUnder(folder: string): void {
  distrustedFolders.add(path.resolve(folder));
  const real = realPathOf(folder);
  if (real !== undefined) distrustedFolders.add(real);
}

/** PATH's entries a program may be taken from when it runs in `cwd` (also distrusted). Order kept. */
export function trustedSearchPath(searchPath: string, cwd?: string, delimiter: string = path.delimiter): string[] {
  const distrusted = [...distrustedFolders];
  // The folder it runs in (a repository root, above a workspace that is a subfolder), unless that is `/`.
  if (cwd !== undefined && path.dirname(path.resolve(cwd)) !== path.resolve(cwd))
    distrusted.push(path.resolve(cwd), realPathOf(cwd) ?? path.resolve(cwd));
  return searchPath.split(delimiter).filter((entry) => {
    // A relative or empty entry means "wherever the program happens to run": the repository, often.
    if (entry === '' || !path.isAbsolute(entry)) return false;
    const real = realPathOf(entry) ?? path.resolve(entry);
    return !distrusted.some((folder) => isInside(folder, path.resolve(entry)) || isInside(folder, real));
  });
}

/**
 * `environment` with its PATH (any case: Windows' `Path`) reduced to `trustedSearchPath`: the lookup of
 * `file` by name happens in it, and what the program itself starts by name (gh's git) too.
 */
export function withTrustedSearchPath(
  environment: Readonly<Record<string, string | undefined>>,
  cwd: string | undefined,
): Record<string, string | undefined> {
  const name = Object.keys(environment).find((key) => key.toUpperCase() === 'PATH');
  if (name === undefined) return { ...environment };
  return { ...environment, [name]: trustedSearchPath(environment[name] ?? '', cwd).join(path.delimiter) };
}

/** True when `file` names a program to be looked up on PATH rather than a path. */
export function isProgramName(file: string): boolean {
  return !file.includes('/') && !file.includes('\\');
}

/** True when `candidate` is `folder` or lies beneath it (resolved paths). Here, not workspace/paths.ts: the engine's root floor imports no folder above it. */
function isInside(folder: string, candidate: string): boolean {
  const relative = path.relative(folder, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function realPathOf(entry: string): string | undefined {
  try {
    return realpathSync.native(entry);
  } catch {
    return undefined;
  }
}
