import { WorkspaceError } from '../../errors.js';
import { compileGlob } from '../glob/glob-matcher.js';
import { type CompiledRe2, loadRe2, re2ErrorDetail } from '../regex-engine.js';
import { type SearchMatch } from '../workspace.js';
import { type SearchPacer } from './search-pacer.js';

/**
 * A search regex compiled for the JavaScript engine, in RE2 (see regex-engine.ts): the syntax ripgrep
 * uses, matched in time linear in the text, so that no pattern (`(a+)+$`) can freeze the process.
 */
export interface CompiledSearch {
  /** Matches one line (without its `\n`; a `\r` stays, as ripgrep sees it without --crlf). */
  line: CompiledRe2;
  /**
   * Multiline version: a run of whole lines it does not match has no matching line (cheap rejection).
   * Undefined when the pattern could match a line but not the run (`\A`, `\z`, `(?-m)`).
   */
  lines?: CompiledRe2;
}

/** Longest search pattern accepted, in characters: compiling takes about a millisecond per thousand. */
export const maxSearchPatternLength = 4096;

/** Refuses a pattern over `maxSearchPatternLength`, whichever engine would run it. */
export function assertSearchPatternLength(pattern: string): void {
  if (pattern.length <= maxSearchPatternLength) return;
  throw new WorkspaceError(
    'invalid',
    `The regular expression is ${pattern.length} characters long, over the limit of ${maxSearchPatternLength}. Search for a shorter, distinctive part.`,
  );
}

/**
 * Compiles a ripgrep-style pattern. A leading `(?i)` is RE2 syntax too. Constructs ripgrep refuses
 * (look-around, backreferences) are refused with ripgrep's words.
 */
export async function compileSearchPattern(pattern: string, caseInsensitive = false): Promise<CompiledSearch> {
  assertSearchPatternLength(pattern);
  const RE2JS = await loadRe2();
  const flags = caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0;
  try {
    const line = RE2JS.compile(pattern, flags);
    const anchoredToText = /\\[Az]|\(\?[a-zA-Z]*-[a-zA-Z]*m/.test(pattern);
    return { line, lines: anchoredToText ? undefined : RE2JS.compile(pattern, flags | RE2JS.MULTILINE) };
  } catch (error) {
    throw invalidPattern(pattern, unsupportedConstruct(pattern) ?? re2ErrorDetail(error));
  }
}

/** Scanned by hand: a regex over a model's pattern would need care not to backtrack itself. */
function unsupportedConstruct(pattern: string): string | undefined {
  for (let index = 0; index < pattern.length; index++) {
    if (pattern[index] === '\\') {
      const escaped = pattern[++index];
      if (escaped >= '1' && escaped <= '9') return 'backreferences are not supported';
    } else if (
      pattern.startsWith('(?=', index) ||
      pattern.startsWith('(?!', index) ||
      pattern.startsWith('(?<=', index) ||
      pattern.startsWith('(?<!', index)
    ) {
      return 'look-around, including look-ahead and look-behind, is not supported';
    }
  }
  return undefined;
}

export function invalidPattern(pattern: string, detail: string): WorkspaceError {
  return new WorkspaceError(
    'invalid',
    `Invalid regular expression ${JSON.stringify(pattern)}: ${detail.trim()}. Escape special characters such as ( [ { . * + ? with a backslash to match them literally.`,
  );
}

/**
 * A file filter with ripgrep's `--glob` meaning: without a `/`, the pattern matches the file name at any
 * depth (`*.ts`, `*.{ts,tsx}`); with one, the path from the workspace root (`src/**\/*.ts`, `/docs/*.md`).
 */
export async function searchGlobMatcher(glob: string | undefined): Promise<(path: string) => boolean> {
  if (glob === undefined || glob.trim() === '') return () => true;
  let pattern = glob.trim();
  const negated = pattern.startsWith('!');
  if (negated) pattern = pattern.slice(1);
  const anchored = pattern.startsWith('/') || pattern.replace(/\/$/, '').includes('/');
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  const test = await compileGlob(pattern);
  const matches = anchored ? (path: string) => test(path) : (path: string) => test(path.slice(path.lastIndexOf('/') + 1));
  return negated ? (path) => !matches(path) : matches;
}

/** Splits text into lines as ripgrep numbers them: a final `\n` does not start another line. */
export function searchLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Characters of text matched in one step, between two checks of the pacer: whole lines, about this many. */
export const searchSliceLength = 128 * 1024;

/**
 * Appends `text`'s matching lines to `into`; stops once `into` holds `limit` matches. Works through the
 * text a slice of whole lines at a time, reporting each to `pacer`, so that a stop lands within one
 * slice (one line, for a longer line) however large the file.
 */
export async function searchText(
  path: string,
  text: string,
  compiled: CompiledSearch,
  into: SearchMatch[],
  limit: number,
  pacer: SearchPacer,
): Promise<void> {
  let linesBefore = 0;
  for (let start = 0; start < text.length && into.length < limit;) {
    const end = sliceEnd(text, start);
    const slice = text.slice(start, end);
    if (compiled.lines === undefined || compiled.lines.test(slice)) {
      const lines = searchLines(slice);
      for (let index = 0; index < lines.length && into.length < limit; index++) {
        if (compiled.line.test(lines[index])) into.push({ path, line: linesBefore + index + 1, text: stripCarriageReturn(lines[index]) });
      }
      linesBefore += lines.length;
    } else {
      linesBefore += countNewlines(slice);
    }
    start = end;
    await pacer.spend(slice.length);
  }
}

/** Where the slice starting at `start` ends: after the first `\n` at least `searchSliceLength` on. */
function sliceEnd(text: string, start: number): number {
  if (text.length - start <= searchSliceLength) return text.length;
  const newline = text.indexOf('\n', start + searchSliceLength - 1);
  return newline < 0 ? text.length : newline + 1;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

export function stripCarriageReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
