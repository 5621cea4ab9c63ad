import { readdir, readFile } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { throwIfStopped } from '../abort.js';
import { IgnoreStack } from './ignore-rules.js';
import { compareNames, joinWorkspacePath } from './paths.js';
import { type PolicyMatcher } from './policy.js';

/** What a walk needs to know about the workspace. */
export interface WalkContext {
  /** The workspace root as given (absolute). */
  root: string;
  matcher: PolicyMatcher;
}

/**
 * Yields the workspace-relative paths of the files under `start` (a directory, workspace-relative), in
 * `comparePaths` order: entries sorted by name, depth first. Skips excluded names, gitignored entries
 * and symbolic links (which are not followed, as ripgrep does not follow them).
 */
export async function* walkFiles(context: WalkContext, start: string, signal?: AbortSignal): AsyncGenerator<string> {
  for await (const batch of walkFileBatches(context, start, signal)) yield* batch;
}

/**
 * `walkFiles` in batches (runs of consecutive files of one directory): one async step per batch
 * instead of per file, which matters at tens of thousands of files.
 */
export async function* walkFileBatches(context: WalkContext, start: string, signal?: AbortSignal): AsyncGenerator<string[]> {
  const ignores = await ancestorIgnores(context, start);
  yield* walkDirectory(context, start, ignores, signal);
}

async function* walkDirectory(
  context: WalkContext,
  directory: string,
  inherited: IgnoreStack,
  signal: AbortSignal | undefined,
): AsyncGenerator<string[]> {
  throwIfStopped(signal);
  const absolute = nodePath.join(context.root, directory);
  let entries;
  try {
    entries = await readdir(absolute, { withFileTypes: true });
  } catch {
    return; // Unreadable or vanished mid-walk: skipped, as ripgrep skips it.
  }
  entries.sort((a, b) => compareNames(a.name, b.name));
  const respectGitignore = context.matcher.policy.respectGitignore;
  const hasGitignore = respectGitignore && entries.some((entry) => entry.name === '.gitignore' && entry.isFile());
  const ignores = hasGitignore ? await inherited.with(directory, await readOptional(nodePath.join(absolute, '.gitignore'))) : inherited;
  let files: string[] = [];
  for (const entry of entries) {
    // Excluded names go whatever their type: a worktree's `.git` is a file.
    if (context.matcher.isExcludedDirectory(entry.name)) continue;
    const path = joinWorkspacePath(directory, entry.name);
    if (entry.isDirectory()) {
      if (ignores.isIgnored(path, true)) continue;
      if (files.length > 0) yield files;
      files = [];
      yield* walkDirectory(context, path, ignores, signal);
    } else if (entry.isFile()) {
      if (!ignores.isIgnored(path, false)) files.push(path);
    }
  }
  if (files.length > 0) yield files;
}

/** The `.gitignore` rules of `start`'s ancestors (root included, `start` itself excluded). */
export async function ancestorIgnores(context: WalkContext, start: string): Promise<IgnoreStack> {
  let stack = IgnoreStack.empty;
  if (!context.matcher.policy.respectGitignore || start === '') return stack;
  const segments = start.split('/');
  for (let depth = 0; depth < segments.length; depth++) {
    const directory = segments.slice(0, depth).join('/');
    stack = await stack.with(directory, await readOptional(nodePath.join(context.root, directory, '.gitignore')));
  }
  return stack;
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}
