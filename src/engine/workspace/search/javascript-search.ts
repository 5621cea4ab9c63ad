import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import * as nodePath from 'node:path';
import { throwIfStopped } from '../../util/abort.js';
import { walkFileBatches, type WalkContext } from '../node-walk.js';
import { type SearchMatch, type SearchResult } from '../workspace.js';
import { compileSearchPattern, searchGlobMatcher, searchText } from './search-pattern.js';

export interface EngineSearchRequest {
  pattern: string;
  /** Workspace-relative directory or file, already confined. */
  start: string;
  startIsFile: boolean;
  glob?: string;
  caseInsensitive: boolean;
  maxResults: number;
  /** Files larger than this are skipped. */
  maxFileBytes: number;
  signal?: AbortSignal;
}

/**
 * Files searched between two yields to the event loop. Reading synchronously is about ten times faster
 * than through the thread pool for many small files; yielding every slice keeps the host responsive
 * and lets an abort land.
 */
const filesPerSlice = 32;

/**
 * The JavaScript fallback for `Workspace.search`: the same files, order and cap as the ripgrep engine
 * (see ripgrep-search.ts), with JavaScript regex syntax. Binary files (a NUL byte) are skipped, as
 * ripgrep skips them.
 */
export async function searchWithJavaScript(context: WalkContext, request: EngineSearchRequest): Promise<SearchResult> {
  const compiled = compileSearchPattern(request.pattern, request.caseInsensitive);
  const includes = searchGlobMatcher(request.glob);
  const limit = request.maxResults + 1; // one more than asked tells whether the result was cut
  const matches: SearchMatch[] = [];
  const searchFiles = (paths: string[]) => {
    for (const path of paths) {
      if (matches.length >= limit) return;
      const text = readSearchable(nodePath.join(context.root, path), request.maxFileBytes);
      if (text !== null) searchText(path, text, compiled, matches, limit);
    }
  };

  if (request.startIsFile) {
    searchFiles([request.start]);
  } else {
    let sinceYield = 0;
    walk: for await (const batch of walkFileBatches(context, request.start, request.signal)) {
      for (let index = 0; index < batch.length; index += filesPerSlice) {
        const slice = batch.slice(index, index + filesPerSlice).filter((path) => includes(path));
        searchFiles(slice);
        if (matches.length >= limit) break walk;
        sinceYield += slice.length;
        if (sinceYield >= filesPerSlice) {
          sinceYield = 0;
          await yieldToEventLoop();
          throwIfStopped(request.signal);
        }
      }
    }
  }
  throwIfStopped(request.signal);
  const truncated = matches.length > request.maxResults;
  return { matches: matches.slice(0, request.maxResults), truncated };
}

// O_NONBLOCK so that opening a FIFO never hangs; it has no effect on regular files.
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** The file's text, or null when it is not a regular file, too large, binary or unreadable. */
function readSearchable(absolutePath: string, maxFileBytes: number): string | null {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(absolutePath, openFlags);
    const info = fstatSync(descriptor);
    if (!info.isFile() || info.size > maxFileBytes) return null;
    const bytes = Buffer.allocUnsafe(info.size);
    let filled = 0;
    while (filled < info.size) {
      const read = readSync(descriptor, bytes, filled, info.size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    const content = bytes.subarray(0, filled);
    if (content.includes(0)) return null;
    return content.toString('utf8');
  } catch {
    return null;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
