import { createInterface } from 'node:readline';
import { onAbort, throwIfStopped } from '../../abort.js';
import { AgentTeamError } from '../../errors.js';
import { programEnvironment, startProcess } from '../../process-launcher.js';
import { type SearchMatch } from '../workspace.js';
import { skippedForSize } from './large-files.js';
import { decodeField, normalizeRipgrepPath, type RipgrepRun, summarizeRipgrepError } from './ripgrep-output.js';
import { type EngineSearchRequest } from './javascript-search.js';
import { invalidPattern } from './search-pattern.js';

/**
 * One ripgrep process: started through the launcher with the flags ripgrep-search.ts chose, its JSON
 * lines read into matches (and its `--debug` lines into what it skipped for size), stopped at the cap.
 */

interface RipgrepEndMessage {
  type: 'end';
  data: { path: { text?: string; bytes?: string }; binary_offset: number | null; stats?: { bytes_searched?: number } };
}

interface RipgrepMatchMessage {
  type: 'match';
  data: {
    path: { text?: string; bytes?: string };
    lines: { text?: string; bytes?: string };
    line_number: number | null;
  };
}

/**
 * How a run ends once it has more than `maxResults` matches; either way ripgrep is stopped there and the
 * result says `truncated`.
 * - `collect` (unsorted output): the matches held are not the first ones; the caller runs again sorted.
 * - `first` (`--sort path` output): everything after the first `maxResults` sorts later; they are the result.
 */
export type OverflowMode = 'collect' | 'first';

export function runRipgrep(
  ripgrepPath: string,
  args: string[],
  root: string,
  request: EngineSearchRequest,
  keep: (path: string) => boolean,
  mode: OverflowMode,
): Promise<RipgrepRun> {
  return new Promise<RipgrepRun>((resolve, reject) => {
    // The base environment only: with --no-config and --no-ignore-global it reads nothing else of ours.
    const child = startProcess(ripgrepPath, args, { cwd: root, environment: programEnvironment() });
    const matches: SearchMatch[] = [];
    let truncated = false;
    let stderr = '';
    const skipped: string[] = [];
    const smallFiles = new Set<string>();
    let sawDebug = false;
    let spawnError: Error | undefined;
    const stopWatching = request.signal ? onAbort(request.signal, () => child.kill()) : () => {};

    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (truncated) return;
      if (line.startsWith('{"type":"end"')) {
        // Searched to the end (a binary file stops at its first NUL byte, and says where).
        const end = JSON.parse(line) as RipgrepEndMessage;
        const searched = end.data.stats?.bytes_searched;
        if (end.data.binary_offset === null && searched !== undefined && largestSizeFor(searched) <= request.maxFileBytes) {
          smallFiles.add(normalizeRipgrepPath(decodeField(end.data.path)));
        }
        return;
      }
      if (!line.startsWith('{"type":"match"')) return;
      const message = JSON.parse(line) as RipgrepMatchMessage;
      const path = normalizeRipgrepPath(decodeField(message.data.path));
      if (!keep(path)) return;
      if (matches.length >= request.maxResults) {
        truncated = true;
        child.kill();
        if (mode === 'collect') matches.length = 0; // not the first ones: nobody may use them
        return;
      }
      matches.push({
        path,
        line: message.data.line_number ?? 0,
        text: decodeField(message.data.lines).replace(/\r?\n$/, ''),
      });
    });
    // `--debug` lines (asked for by a search that learns sizes) are read apart from the messages kept for errors.
    createInterface({ input: child.stderr }).on('line', (line) => {
      if (/^(?:rg: )?DEBUG\|/.test(line)) {
        sawDebug = true;
        const path = skippedForSize(line);
        if (path !== undefined) skipped.push(normalizeRipgrepPath(path));
      } else if (stderr.length < 64 * 1024) {
        stderr += `${line}\n`;
      }
    });
    child.on('error', (error) => {
      spawnError = error;
    });
    child.on('close', (code) => {
      stopWatching();
      try {
        throwIfStopped(request.signal);
      } catch (error) {
        reject(error);
        return;
      }
      if (spawnError) return reject(new RipgrepUnavailableError(ripgrepPath, spawnError));
      if (!truncated && code === 2 && /regex parse error|error parsing regex|not allowed in a regex/i.test(stderr)) {
        return reject(invalidPattern(request.pattern, summarizeRipgrepError(stderr)));
      }
      // 0: matches, 1: none, 2: some files could not be read (their lines are simply missing).
      if (!truncated && code !== 0 && code !== 1 && code !== 2) {
        return reject(new Error(`ripgrep exited with code ${String(code)}: ${stderr.trim()}`));
      }
      resolve({ matches, truncated, completed: !truncated, skippedForSize: skipped, sawDebug, smallFiles });
    });
  });
}

/** ripgrep could not be started; the caller falls back to the JavaScript engine. */
export class RipgrepUnavailableError extends AgentTeamError {
  override readonly name: string = 'RipgrepUnavailableError';
  readonly code = 'ripgrep-unavailable';
  constructor(ripgrepPath: string, cause: Error) {
    super(`could not run ripgrep at ${ripgrepPath}: ${cause.message}`, { cause });
  }
}

/** The largest a file can be on disk when ripgrep searched `bytesSearched` of it: ripgrep searches UTF-16 as UTF-8, about half the bytes, without its byte-order mark. */
function largestSizeFor(bytesSearched: number): number {
  return 2 * bytesSearched + 4;
}
