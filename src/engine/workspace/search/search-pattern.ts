import picomatch from 'picomatch/posix';
import { WorkspaceError } from '../../errors.js';
import { type SearchMatch } from '../workspace.js';

/** A search regex compiled for the JavaScript engine: one to prefilter whole files, one per line. */
export interface CompiledSearch {
  /** Matches one line (without its `\n`; a `\r` stays, as ripgrep sees it without --crlf). */
  line: RegExp;
  /** Multiline version: a file it does not match has no matching line (cheap rejection). */
  file: RegExp;
}

/**
 * Compiles a ripgrep-style pattern as a JavaScript regex. A leading `(?i)` (common in ripgrep patterns)
 * becomes the `i` flag. Unicode mode is tried first, as ripgrep is Unicode-aware; patterns only the
 * legacy syntax accepts (`\-` outside a class) fall back to it.
 */
export function compileSearchPattern(pattern: string, caseInsensitive = false): CompiledSearch {
  let source = pattern;
  let flags = caseInsensitive ? 'i' : '';
  if (source.startsWith('(?i)')) {
    source = source.slice(4);
    flags = 'i';
  }
  let firstError: unknown;
  for (const unicode of ['u', '']) {
    try {
      return { line: new RegExp(source, flags + unicode), file: new RegExp(source, `${flags}${unicode}m`) };
    } catch (error) {
      firstError ??= error;
    }
  }
  throw invalidPattern(pattern, firstError instanceof Error ? firstError.message : String(firstError));
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
export function searchGlobMatcher(glob: string | undefined): (path: string) => boolean {
  if (glob === undefined || glob.trim() === '') return () => true;
  let pattern = glob.trim();
  const negated = pattern.startsWith('!');
  if (negated) pattern = pattern.slice(1);
  const anchored = pattern.startsWith('/') || pattern.replace(/\/$/, '').includes('/');
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  const test = picomatch(pattern, { dot: true });
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

/** Appends `text`'s matching lines to `into`; stops once `into` holds `limit` matches. */
export function searchText(path: string, text: string, compiled: CompiledSearch, into: SearchMatch[], limit: number): void {
  if (into.length >= limit || !compiled.file.test(text)) return;
  const lines = searchLines(text);
  for (let index = 0; index < lines.length && into.length < limit; index++) {
    if (compiled.line.test(lines[index])) into.push({ path, line: index + 1, text: stripCarriageReturn(lines[index]) });
  }
}

export function stripCarriageReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
