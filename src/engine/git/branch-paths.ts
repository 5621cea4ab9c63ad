/**
 * The paths a branch may commit. They come from a run's file, which anyone who can write the workspace
 * can craft: each must be a plain workspace-relative path (no `..`, no absolute path, no empty or `.`
 * part, no backslash or control character) and never reach version-control internals, under any
 * spelling git or a file system would take for `.git` (`.GIT`, `.git.`, `.git ` on Windows, `git~1`,
 * HFS+'s ignored characters). Prefixed with the workspace's folder in the repository, such a path stays
 * inside that folder even when the workspace is a subfolder of a monorepo.
 */

/** Characters HFS+ ignores in names (git's `is_hfs_dotgit`), so `.g\u200cit` is `.git` there. */
const ignoredByHfs = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** Why `path` cannot be committed, or undefined when it can. */
export function branchPathProblem(path: string): string | undefined {
  const shown = JSON.stringify(path);
  if (path === '') return 'an empty path';
  if (path.length > 4096) return `${shown.slice(0, 80)}… is too long to be a file path`;
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path)) return `${shown} is absolute; a run's paths are relative to its workspace folder`;
  // Control characters (code points below 32, and DEL) and backslash: another separator on Windows.
  if ([...path].some((character) => character.charCodeAt(0) < 32 || character.charCodeAt(0) === 127) || path.includes('\\'))
    return `${shown} holds a backslash or a control character`;
  for (const part of path.split('/')) {
    if (part === '' || part === '.' || part === '..')
      return `${shown} is not a plain path inside the workspace folder (it has an empty, "." or ".." part)`;
    if (namesGitDirectory(part)) return `${shown} reaches into version-control internals (${JSON.stringify(part)})`;
  }
  return undefined;
}

/** The first problem among `paths`, naming the path, or undefined when all may be committed. */
export function firstBranchPathProblem(paths: Iterable<string>): string | undefined {
  for (const path of paths) {
    const problem = branchPathProblem(path);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function namesGitDirectory(part: string): boolean {
  // Windows drops trailing dots and spaces; HFS+ ignores some invisible characters; NTFS has 8.3 names.
  const name = part
    .replace(ignoredByHfs, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
  return name === '.git' || name === 'git~1' || name.startsWith('.git:');
}
