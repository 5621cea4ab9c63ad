/**
 * git's rules for a branch name (git-check-ref-format(1)), checked without running git: an input box
 * validates as the user types, at every key. `git check-ref-format --branch` still has the last word
 * before a branch is made (branch-preflight.ts). Stricter than git on purpose: a name git takes but that
 * names something else than a plain new branch (`refs/heads/main` would make `refs/heads/refs/heads/main`,
 * `FETCH_HEAD` shadows git's own) is refused, so a commit never lands where the user did not mean.
 */

/** Why git would refuse `name` as a branch name, or undefined. */
export function branchNameRuleProblem(name: string): string | undefined {
  if (name.trim() === '') return 'A branch needs a name.';
  if (name.startsWith('-')) return 'A branch name cannot start with "-".';
  if (/^refs\//i.test(name))
    return 'Give the branch\'s short name (main, not refs/heads/main): a name starting with "refs/" would make another ref than the one it looks like.';
  if (/^(?:[a-z_]*_)?head$/i.test(name)) return `"${name}" is one of git's own names (HEAD, FETCH_HEAD, ORIG_HEAD…), not a branch.`;
  if (name === '@' || name.includes('@{')) return 'A branch name cannot be "@" or contain "@{".';
  // Control characters and space (code points up to 32, and DEL), ~ ^ : ? * [ and backslash.
  if ([...name].some((character) => character.charCodeAt(0) <= 32 || character.charCodeAt(0) === 127) || /[~^:?*[\\]/.test(name))
    return 'A branch name cannot contain spaces or any of ~ ^ : ? * [ \\.';
  if (name.includes('..')) return 'A branch name cannot contain "..".';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//'))
    return 'A branch name cannot start or end with "/", or contain "//".';
  if (name.endsWith('.')) return 'A branch name cannot end with ".".';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return 'No part of a branch name (between "/") can start with ".".';
    if (part.endsWith('.lock')) return 'No part of a branch name (between "/") can end with ".lock".';
  }
  return undefined;
}
