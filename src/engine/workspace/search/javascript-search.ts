import { open } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { throwIfAborted, walkFiles, type WalkContext } from '../node-walk.js';
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

/** Files read at once: enough to hide file-system latency, few enough to keep memory flat. */
const readAhead = 16;

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
  const searchFile = async (path: string): Promise<SearchMatch[]> => {
    const text = await readSearchable(nodePath.join(context.root, path), request.maxFileBytes);
    const found: SearchMatch[] = [];
    if (text !== null) searchText(path, text, compiled, found, limit);
    return found;
  };

  if (request.startIsFile) {
    matches.push(...(await searchFile(request.start)));
  } else {
    // Files are read ahead in parallel but their matches are taken strictly in walk order, so the walk
    // can stop at the cap without losing the first matches.
    const pending: Array<Promise<SearchMatch[]>> = [];
    const walk = walkFiles(context, request.start, request.signal);
    try {
      for await (const path of walk) {
        if (!includes(path)) continue;
        pending.push(searchFile(path));
        if (pending.length >= readAhead) matches.push(...(await pending.shift()!));
        if (matches.length >= limit) break;
      }
      while (pending.length > 0 && matches.length < limit) matches.push(...(await pending.shift()!));
    } finally {
      await Promise.allSettled(pending);
      await walk.return(undefined);
    }
  }
  throwIfAborted(request.signal);
  const truncated = matches.length > request.maxResults;
  return { matches: matches.slice(0, request.maxResults), truncated };
}

/** The file's text, or null when it is too large, binary or unreadable. */
async function readSearchable(absolutePath: string, maxFileBytes: number): Promise<string | null> {
  let handle;
  try {
    handle = await open(absolutePath, 'r');
    const { size } = await handle.stat();
    if (size > maxFileBytes) return null;
    const bytes = await handle.readFile();
    if (bytes.includes(0)) return null;
    return bytes.toString('utf8');
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}
