import { stat } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { comparePaths } from '../paths.js';
import { type SearchMatch, type SearchResult } from '../workspace.js';

/** What ripgrep prints, read: its fields, paths and errors; and what a run's matches become (sorted as the walk orders them, sized against the limit). */

export function strip(run: RipgrepRun): SearchResult {
  return { matches: run.matches, truncated: run.truncated };
}

/** The files among those that matched that are over `limit` now (a vanished one is not). */
export async function largeMatchedFiles(root: string, run: RipgrepRun, limit: number): Promise<Set<string>> {
  const paths = [...new Set(run.matches.map((match) => match.path))].filter((path) => !run.smallFiles.has(path));
  const sizes = await Promise.all(
    paths.map((path) =>
      stat(nodePath.join(root, path)).then(
        (info) => info.size,
        () => 0,
      ),
    ),
  );
  return new Set(paths.filter((_path, index) => sizes[index] > limit));
}

export function compareMatches(a: SearchMatch, b: SearchMatch): number {
  return comparePaths(a.path, b.path) || a.line - b.line;
}

/** One search as ripgrep ran it, with what its `--debug` lines said when it was asked for them. */
export interface RipgrepRun extends SearchResult {
  /** ripgrep walked to the end (it was not stopped at the cap). */
  completed: boolean;
  /** Files `--max-filesize` skipped, workspace-relative. */
  skippedForSize: string[];
  /** ripgrep printed `--debug` lines at all (so that none about sizes means none was skipped). */
  sawDebug: boolean;
  /** Files ripgrep searched to the end whose size its `end` message shows within the limit: not looked at again. */
  smallFiles: Set<string>;
}

export function decodeField(field: { text?: string; bytes?: string }): string {
  if (field.text !== undefined) return field.text;
  return Buffer.from(field.bytes ?? '', 'base64').toString('utf8');
}

export function normalizeRipgrepPath(path: string): string {
  const posix = nodePath.sep === '\\' ? path.replace(/\\/g, '/') : path;
  return posix.startsWith('./') ? posix.slice(2) : posix;
}

export /** ripgrep's regex errors span several lines with a caret diagram; the last line says what is wrong. */
function summarizeRipgrepError(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const error = lines.find((line) => line.startsWith('error:'));
  return error ? error.replace(/^error:\s*/, '') : (lines[lines.length - 1] ?? 'ripgrep rejected the pattern');
}
