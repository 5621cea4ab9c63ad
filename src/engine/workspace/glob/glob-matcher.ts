import { WorkspaceError } from '../../errors.js';
import { loadRe2, re2ErrorDetail } from '../regex-engine.js';
import { expandBraces } from './brace-expansion.js';
import { globToRegexSource } from './glob-to-regex.js';

/** Longest glob accepted, in characters. */
export const maxGlobPatternLength = 1024;

/** Tells whether a workspace-relative POSIX path matches. */
export type GlobMatcher = (path: string) => boolean;

export interface GlobMatcherOptions {
  /** Match regardless of case. Default: false (picomatch's default). */
  caseInsensitive?: boolean;
}

/**
 * Compiles a glob written by a model (Glob's pattern, Grep's `glob` filter) with picomatch's meaning
 * (see glob-to-regex.ts; a leading `!` negates), into one RE2 regex: matching a path takes time linear
 * in its length, whatever the pattern. picomatch compiles to a backtracking `RegExp`, on which
 * `*a*a*a*a*a*a*a*a*a*a*a*a*b` against a long file name would never finish. Refuses, with an error
 * naming the limit, patterns longer than `maxGlobPatternLength` or expanding to too many alternatives.
 */
export async function compileGlob(pattern: string, options: GlobMatcherOptions = {}): Promise<GlobMatcher> {
  if (pattern.length > maxGlobPatternLength) {
    throw new WorkspaceError(
      'invalid',
      `The glob is ${pattern.length} characters long, over the limit of ${maxGlobPatternLength}. Use a shorter pattern, or several calls.`,
    );
  }
  let body = pattern;
  let negated = false;
  while (body.startsWith('!') && body[1] !== '(') {
    negated = !negated;
    body = body.slice(1);
  }
  const source = expandBraces(body, pattern)
    .map((alternative) => globToRegexSource(alternative, pattern))
    .join('|');
  const RE2JS = await loadRe2();
  let regex;
  try {
    regex = RE2JS.compile(`^(?:${source})$`, options.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    throw new WorkspaceError('invalid', `The glob ${JSON.stringify(pattern)} is not valid: ${re2ErrorDetail(error)}.`);
  }
  return negated ? (path) => !regex.test(path) : (path) => regex.test(path);
}

const globSpecialCharacters = /[*?[\]{}()!@+|\\]/;

/**
 * The leading directories of a glob that hold no wildcard (`src/app` for `src/app/**\/*.ts`), where a
 * walk can start; the whole pattern when it has no wildcard at all. Conservative: a segment with any
 * character a glob may treat specially ends the prefix.
 */
export function globLiteralPrefix(pattern: string): string {
  const segments = pattern.split('/');
  const literal = segments.findIndex((segment) => globSpecialCharacters.test(segment));
  return literal < 0 ? pattern : segments.slice(0, literal).join('/');
}
