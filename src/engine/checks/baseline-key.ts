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
import { createHash, type Hash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Git, splitNul } from '../commands/git-runner.js';

const installRecords = [
  'node_modules/.package-lock.json',
  'node_modules/.yarn-integrity',
  'node_modules/.modules.yaml',
  '.venv/pyvenv.cfg',
  'target/.rustc_info.json',
];
/** Above this many files the walk would cost more than the baseline saves: no key. */
const maxHashedFiles = 50_000;

export async function baselineKey(workspaceRoot: string, git: Git, signal?: AbortSignal): Promise<string | undefined> {
  let files: string[];
  try {
    files = splitNul(
      await git(['ls-files', '-co', '--exclude-standard', '-z'], { cwd: workspaceRoot, ...(signal ? { signal } : {}) }),
    ).sort();
  } catch {
    return undefined;
  }
  if (files.length > maxHashedFiles) return undefined;
  const hash = createHash('sha256').update('agent-team checks baseline 1\0');
  for (const file of files) await hashFile(hash, file, join(workspaceRoot, file));
  for (const record of installRecords) {
    const info = await stat(join(workspaceRoot, record)).catch(() => undefined);
    hash.update(`${record}\0${info ? `${info.size}:${info.mtimeMs}` : '-'}\0`);
  }
  return hash.digest('hex');
}

// O_NONBLOCK: a FIFO put in a file's place after the listing opens at once instead of waiting for a writer;
// O_NOFOLLOW: a link put there is not followed (bounded-read.ts opens the engine's own files the same way).
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const chunkBytes = 1024 ** 2;

/**
 * Adds a file to the key: its path, then its length and content for a regular file (streamed, so a large
 * file is never held whole); a link's target (a link is copied as a link, and following one could reach a
 * FIFO and wait forever); '-' for anything else (gone since the listing, a submodule's folder, a FIFO).
 */
async function hashFile(hash: Hash, name: string, path: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink()) {
    const link = Buffer.from(`link:${await readlink(path).catch(() => '')}`);
    hash.update(`${name}\0${link.length}\0`).update(link);
    return;
  }
  const file = info?.isFile() ? await open(path, openFlags).catch(() => undefined) : undefined;
  try {
    const opened = file ? await file.stat() : undefined;
    if (!file || !opened?.isFile()) {
      hash.update(`${name}\0-\0`);
      return;
    }
    hash.update(`${name}\0${opened.size}\0`);
    const buffer = Buffer.alloc(Math.min(chunkBytes, Math.max(1, opened.size)));
    for (let offset = 0; offset < opened.size;) {
      const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, opened.size - offset), offset);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      offset += bytesRead;
    }
  } finally {
    await file?.close();
  }
}
