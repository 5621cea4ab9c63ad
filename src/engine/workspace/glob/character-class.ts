/**
 * Character classes (`[abc]`, `[!a-z]`, `[^a]`, `[[:alpha:]]`) as globs and gitignore rules write them,
 * and their RE2 form. Shared by the glob matcher and the gitignore rules.
 */

/** The index of the `]` closing the class that opens at `open`, or undefined when it is not a class. */
export function classEnd(pattern: string, open: number): number | undefined {
  let index = open + 1;
  if (pattern[index] === '!' || pattern[index] === '^') index++;
  if (pattern[index] === ']') index++; // a leading `]` is a member
  // Once no `:]` is left, later `[:` need not look again (keeps a pattern of many `[:` linear).
  let posixCloseLeft = true;
  for (; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\') index++;
    else if (character === '[' && pattern[index + 1] === ':' && posixCloseLeft) {
      const end = pattern.indexOf(':]', index + 2);
      if (end >= 0) index = end + 1;
      else posixCloseLeft = false;
    } else if (character === ']') return index;
  }
  return undefined;
}

/** A class body (between `[` and `]`, as `classEnd` found it) in RE2 syntax; a negated class never matches `/`. */
export function translateClass(body: string): string {
  const negated = body.startsWith('!') || body.startsWith('^');
  const members = negated ? body.slice(1) : body;
  let source = negated ? '[^/' : '[';
  for (let index = 0; index < members.length; index++) {
    const character = members[index];
    if (character === '\\' && index + 1 < members.length) {
      index++;
      source += /[A-Za-z0-9]/.test(members[index]) ? members[index] : `\\${members[index]}`;
    } else if (character === '[' && members[index + 1] === ':') {
      const end = members.indexOf(':]', index + 2);
      if (end < 0) {
        source += '\\[';
      } else {
        source += members.slice(index, end + 2);
        index = end + 1;
      }
    } else if (character === '[' || character === ']' || character === '^' || character === '\\') {
      source += `\\${character}`;
    } else {
      source += character;
    }
  }
  return `${source}]`;
}

export function escapeRegex(character: string): string {
  return /[\\.+*?()|[\]{}^$]/.test(character) ? `\\${character}` : character;
}

/**
 * The index of the `closing` character that closes the `opening` one at `open`, skipping escapes and
 * character classes (a `}` or `)` inside `[...]` closes nothing); undefined when it is never closed.
 */
export function matchingClose(pattern: string, open: number, opening: string, closing: string): number | undefined {
  let depth = 0;
  for (let index = open; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\') index++;
    else if (character === '[') index = classEnd(pattern, index) ?? index;
    else if (character === opening) depth++;
    else if (character === closing && --depth === 0) return index;
  }
  return undefined;
}
