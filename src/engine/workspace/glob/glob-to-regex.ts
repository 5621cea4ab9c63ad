import { WorkspaceError } from '../../errors.js';
import { classEnd, escapeRegex, matchingClose, translateClass } from './character-class.js';

/**
 * Translates one glob, its braces already expanded, into RE2 syntax matching a whole workspace-relative
 * path, with picomatch's meaning (`dot: true`, so wildcards match dotfiles):
 * - `*` any run of characters but `/`; `?` one of them; `[abc]`, `[a-z]`, `[!abc]`, `[^abc]`,
 *   `[[:alpha:]]` classes (a negated class never matches `/`); `\x` the character x;
 * - `**` as a whole segment: any number of segments (`**\/x`, `a/**\/b`; a trailing `a/**` also matches
 *   `a`); elsewhere (`a**`) it is `*`;
 * - `@(a|b)`, `?(a|b)`, `+(a|b)`, `*(a|b)` and plain `(a|b)` groups. `!(a|b)` cannot be expressed
 *   without look-ahead, which RE2 lacks: it is refused with a clear error.
 * Everything else is literal. RE2 then matches in time linear in the path, whatever the pattern.
 */
export function globToRegexSource(glob: string, originalPattern: string): string {
  let source = '';
  const groups: string[] = []; // the closing text of each open group, innermost last
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index];
    const groupClose = extglobClose(glob, index);
    if (groupClose !== undefined) {
      if (character === '!') throw unsupported(originalPattern, '!(…) (a negated group)');
      groups.push(groupClose);
      source += '(?:';
      if (character !== '(') index++; // past the `(` of `@(`, `?(`, …
      continue;
    }
    switch (character) {
      case '\\':
        index++;
        source += index < glob.length ? escapeRegex(glob[index]) : '\\\\';
        break;
      case '*': {
        let run = 1;
        while (glob[index + run] === '*' && extglobClose(glob, index + run) === undefined) run++;
        const atSegmentStart = index === 0 || glob[index - 1] === '/';
        const next = glob[index + run];
        index += run - 1;
        if (run >= 2 && groups.length === 0 && atSegmentStart && (next === undefined || next === '/')) {
          source = globstar(source, next === '/');
          if (next === '/') index++;
        } else {
          source += '[^/]*';
        }
        break;
      }
      case '?':
        source += '[^/]';
        break;
      case '[': {
        const end = classEnd(glob, index);
        if (end === undefined) {
          source += '\\[';
        } else {
          source += translateClass(glob.slice(index + 1, end));
          index = end;
        }
        break;
      }
      case '|':
        source += groups.length > 0 ? '|' : '\\|';
        break;
      case ')':
        source += groups.length > 0 ? groups.pop()! : '\\)';
        break;
      default:
        source += escapeRegex(character);
    }
  }
  return source;
}

/** `**` as a whole segment: before a `/`, any leading directories; at the end, anything below (or nothing). */
function globstar(source: string, beforeSlash: boolean): string {
  if (beforeSlash) return `${source}(?:.*/)?`;
  if (source === '') return '.*';
  return `${source.slice(0, -1)}(?:/.*)?`; // `source` ends with the segment's `/`
}

/**
 * When a group opens at `index` (`@(`, `?(`, `+(`, `*(`, `!(` or a bare `(`) and has its `)`, the text
 * that closes it in RE2 syntax; otherwise undefined (the characters are then literal).
 */
function extglobClose(glob: string, index: number): string | undefined {
  const character = glob[index];
  const open = character === '(' ? index : glob[index + 1] === '(' && '@?+*!'.includes(character) ? index + 1 : -1;
  if (open < 0 || matchingClose(glob, open, '(', ')') === undefined) return undefined;
  return { '?': ')?', '+': ')+', '*': ')*' }[character] ?? ')';
}

function unsupported(pattern: string, construct: string): WorkspaceError {
  return new WorkspaceError(
    'invalid',
    `The glob ${JSON.stringify(pattern)} uses ${construct}, which is not supported. List what to include instead, e.g. "*.{ts,js}".`,
  );
}
