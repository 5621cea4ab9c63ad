/**
 * What the baseline (the checks on the workspace as it is) is cached by: the content of every file a
 * scratch copy holds, which is every file git tracks or would track (`git ls-files -co
 * --exclude-standard`), by path and content. Any edit, new or removed file outside the ignored ones
 * changes it. Ignored dependency folders are linked into the copy, not copied: their content is not
 * hashed, but the package managers' own records of an install (`node_modules/.package-lock.json`, …) are
 * stamped by size and time, so an install invalidates it too. What it does not see: a toolchain changed
 * outside the workspace (a new Node, Python), the environment, time-dependent tests; Run Checks Again
 * (`rerun`) clears the cache for that. The cache lives as long as the service (one CLI run; one editor
 * session). No git, or a listing that fails: no key, and the baseline runs every time.
 */
import { createHash } from 'node:crypto';
import { lstat, readFile, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { git, splitNul } from '../commands/git-runner.js';

const installRecords = ['node_modules/.package-lock.json', 'node_modules/.yarn-integrity', 'node_modules/.modules.yaml', '.venv/pyvenv.cfg', 'target/.rustc_info.json'];
/** Above this many files the walk would cost more than the baseline saves: no key. */
const maxHashedFiles = 50_000;

export async function baselineKey(workspaceRoot: string, signal?: AbortSignal): Promise<string | undefined> {
  let files: string[];
  try {
    files = splitNul(await git(['ls-files', '-co', '--exclude-standard', '-z'], { cwd: workspaceRoot, ...(signal ? { signal } : {}) })).sort();
  } catch {
    return undefined;
  }
  if (files.length > maxHashedFiles) return undefined;
  const hash = createHash('sha256').update('agent-team checks baseline 1\0');
  for (const file of files) {
    const content = await fileContent(join(workspaceRoot, file));
    hash.update(`${file}\0${content === undefined ? '-' : content.length}\0`);
    if (content !== undefined) hash.update(content);
  }
  for (const record of installRecords) {
    const info = await stat(join(workspaceRoot, record)).catch(() => undefined);
    hash.update(`${record}\0${info ? `${info.size}:${info.mtimeMs}` : '-'}\0`);
  }
  return hash.digest('hex');
}

/**
 * A regular file's content; a link's target (a link is copied as a link, and following one could reach a
 * FIFO and wait forever); undefined for anything else (gone since the listing, a submodule's folder).
 */
async function fileContent(path: string): Promise<Buffer | undefined> {
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink()) return Buffer.from(`link:${await readlink(path).catch(() => '')}`);
  if (!info?.isFile()) return undefined;
  return readFile(path).catch(() => undefined);
}
