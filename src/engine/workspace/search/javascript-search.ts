import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import * as nodePath from 'node:path';
import { throwIfStopped } from '../../abort.js';
import { walkFileBatches, type WalkContext } from '../node-walk.js';
import { type SearchMatch, type SearchResult } from '../workspace.js';
import { compileSearchPattern, searchGlobMatcher, searchText } from './search-pattern.js';
import { perFileCost, SearchPacer } from './search-pacer.js';

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
 * The JavaScript fallback for `Workspace.search`: the same files, order and cap as the ripgrep engine
 * (see ripgrep-search.ts), and the same regex syntax (RE2's, see search-pattern.ts). Binary files (a NUL
 * byte) are skipped, as ripgrep skips them. Files are read synchronously, which is about ten times faster
 * than through the thread pool for many small files; the pacer yields to the event loop every few hundred
 * kilobytes of work (or 32 small files) and stops there on abort, so no file, however large or
 * pathological, holds the thread for longer than one slice of it.
 */
export async function searchWithJavaScript(context: WalkContext, request: EngineSearchRequest): Promise<SearchResult> {
  const compiled = await compileSearchPattern(request.pattern, request.caseInsensitive);
  const includes = await searchGlobMatcher(request.glob);
  const pacer = new SearchPacer(request.signal);
  const limit = request.maxResults + 1; // one more than asked tells whether the result was cut
  const matches: SearchMatch[] = [];
  const searchFile = async (path: string) => {
    const text = readSearchable(nodePath.join(context.root, path), request.maxFileBytes);
    if (text !== null) await searchText(path, text, compiled, matches, limit, pacer);
    await pacer.spend(perFileCost);
  };

  throwIfStopped(request.signal);
  if (request.startIsFile) {
    await searchFile(request.start);
  } else {
    walk: for await (const batch of walkFileBatches(context, request.start, request.signal)) {
      for (const path of batch) {
        if (!includes(path)) continue;
        await searchFile(path);
        if (matches.length >= limit) break walk;
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
