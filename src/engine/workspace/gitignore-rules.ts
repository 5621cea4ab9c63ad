import { classEnd, escapeRegex, translateClass } from './glob/character-class.js';
import { type CompiledRe2, type Re2 } from './regex-engine.js';

/** Rules longer than this (in characters) are skipped: no path they could be meant for is that long. */
export const maxGitignoreRuleLength = 4096;

/** One line of a `.gitignore`, compiled. */
export interface GitignoreRule {
  negated: boolean;
  /** A rule ending in `/`: it matches directories only. */
  directoryOnly: boolean;
  /** A rule without a `/` (but a trailing one) matches an entry's name at any depth, others its path. */
  nameOnly: boolean;
  regex: CompiledRe2;
}

/**
 * Parses a `.gitignore` as git does (gitignore(5), wildmatch with WM_PATHNAME), case-sensitive as git
 * and ripgrep are by default, into RE2 regexes: matching takes time linear in the path however the rules
 * are written (a backtracking engine takes hours on `**\/a/**\/a/**\/a/**\/a/**\/b` against a deep path).
 * Lines git ignores (blank, `#` comments, an unpaired trailing backslash) are skipped, as are rules RE2
 * cannot compile (an invalid class range, which matches nothing in git either).
 */
export function parseGitignore(content: string, RE2JS: Re2): GitignoreRule[] {
  const rules: GitignoreRule[] = [];
  for (const rawLine of content.split('\n')) {
    let line = trimGitignoreLine(rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine);
    if (line === '' || line.startsWith('#') || line.length > maxGitignoreRuleLength || hasTrailingBackslash(line)) continue;
    const negated = line.startsWith('!');
    if (negated) line = line.slice(1);
    const directoryOnly = line.endsWith('/');
    if (directoryOnly) line = line.slice(0, -1);
    if (line === '') continue;
    const nameOnly = !line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    try {
      rules.push({ negated, directoryOnly, nameOnly, regex: RE2JS.compile(`^(?:${wildmatchToRegex(line)})$`) });
    } catch {
      // Not a pattern git could match either.
    }
  }
  return rules;
}

/** The verdict of the last rule matching `path` (relative to the rules' directory), as git decides. */
export function judgeByRules(rules: readonly GitignoreRule[], path: string, isDirectory: boolean): 'ignored' | 'unignored' | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  for (let index = rules.length - 1; index >= 0; index--) {
    const rule = rules[index];
    if (rule.directoryOnly && !isDirectory) continue;
    if (rule.regex.test(rule.nameOnly ? name : path)) return rule.negated ? 'unignored' : 'ignored';
  }
  return undefined;
}

/**
 * A gitignore pattern (no leading `/`, `!` or trailing `/` left) in RE2 syntax: `*` and `?` stop at `/`;
 * `**` between slashes or at an end spans directories (`**\/x`: x at any depth; `a/**\/b`: zero or more
 * directories between; `a/**`: everything inside a); any other `**` is a `*`; `\x` is x.
 */
function wildmatchToRegex(pattern: string): string {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\') {
      source += escapeRegex(pattern[++index]);
    } else if (character === '*') {
      let run = 1;
      while (pattern[index + run] === '*') run++;
      const atSegmentStart = index === 0 || pattern[index - 1] === '/';
      const next = pattern[index + run];
      index += run - 1;
      if (run >= 2 && atSegmentStart && next === '/') {
        source += '(?:.*/)?';
        index++;
      } else {
        source += run >= 2 && atSegmentStart && next === undefined ? '.*' : '[^/]*';
      }
    } else if (character === '?') {
      source += '[^/]';
    } else if (character === '[' && classEnd(pattern, index) !== undefined) {
      const end = classEnd(pattern, index)!;
      source += translateClass(pattern.slice(index + 1, end));
      index = end;
    } else {
      source += escapeRegex(character);
    }
  }
  return source;
}

/** Trailing spaces are dropped unless escaped with a backslash, as git does. */
export function trimGitignoreLine(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ' && line[end - 2] !== '\\') end--;
  return line.slice(0, end);
}

/** An odd number of backslashes at the end: git drops such a pattern. */
function hasTrailingBackslash(line: string): boolean {
  let count = 0;
  while (line[line.length - 1 - count] === '\\') count++;
  return count % 2 === 1;
}
