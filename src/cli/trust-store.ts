/**
 * The folders the user trusted in the CLI, and the hash of the configuration each was trusted with: one
 * file per user, outside every workspace (a folder must not be able to trust itself), at
 * `$XDG_CONFIG_HOME/agent-team/trusted-folders.json` (default `~/.config/agent-team/trusted-folders.json`),
 * keyed by each folder's real path. Read and written never through a link, written whole and atomically
 * (a new file, then a rename) with mode 0600. A store that is damaged, a link, not a regular file, too
 * large, or not the user's own is treated as empty, and the reader is told why: at worst they are asked
 * again.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import path from 'node:path';
import { ConfigurationError, errorMessage } from '../engine/index.js';

/** One folder's yes: the hash of what it would run when the user said yes, and when. */
export interface TrustedFolder {
  hash: string;
  trustedAt: string;
}

type Folders = Record<string, TrustedFolder>;

/** The store is a few hundred bytes a folder; larger than this, it is not ours. */
const maxStoreBytes = 1024 * 1024;
const readFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const createFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** Where the store is: `$XDG_CONFIG_HOME` when it is an absolute path, else `~/.config`. */
export function trustStorePath(environment: Readonly<Record<string, string | undefined>>): string {
  const configured = environment.XDG_CONFIG_HOME;
  const base = configured !== undefined && path.isAbsolute(configured) ? configured : path.join(environment.HOME || homedir(), '.config');
  return path.join(base, 'agent-team', 'trusted-folders.json');
}

/** The folders trusted so far; a store that cannot be believed is empty, and `warn` says why. */
export async function readTrustStore(file: string, warn: (message: string) => void): Promise<Folders> {
  let handle;
  try {
    handle = await open(file, readFlags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    warn(`the trust store ${file} was not read (${code === 'ELOOP' ? 'it is a link' : errorMessage(error)}): no folder counts as trusted`);
    return {};
  }
  try {
    const info = await handle.stat();
    const ownUid = process.getuid?.();
    const problem = !info.isFile()
      ? 'it is not a regular file'
      : ownUid !== undefined && info.uid !== ownUid
        ? 'it belongs to another user'
        : info.size > maxStoreBytes
          ? 'it is too large'
          : undefined;
    if (problem !== undefined) {
      warn(`the trust store ${file} was not read (${problem}): no folder counts as trusted`);
      return {};
    }
    const folders = parseStore(await handle.readFile('utf8'));
    if (folders === undefined) warn(`the trust store ${file} is damaged: no folder counts as trusted (trusting a folder writes it anew)`);
    return folders ?? {};
  } finally {
    await handle.close();
  }
}

/** Records that the user trusts `folder` (its real path) with the configuration of hash `hash`. */
export async function recordTrust(file: string, folder: string, hash: string, now: Date, warn: (message: string) => void): Promise<void> {
  const directory = path.dirname(file);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const info = await lstat(directory);
  const ownUid = process.getuid?.();
  if (!info.isDirectory() || (ownUid !== undefined && info.uid !== ownUid)) {
    throw new ConfigurationError(
      `the trust store's folder ${directory} is ${info.isDirectory() ? "another user's" : 'not a folder (a link?)'}: nothing was recorded`,
    );
  }
  const folders = { ...(await readTrustStore(file, warn)), [folder]: { hash, trustedAt: now.toISOString() } };
  const temporary = path.join(directory, `.trusted-folders.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, createFlags, 0o600);
  try {
    await handle.writeFile(`${JSON.stringify({ version: 1, folders }, null, 2)}\n`);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  // A rename replaces the name itself: a link planted at the store's name is replaced, never followed.
  await rename(temporary, file).catch(async (error: unknown) => {
    await rm(temporary, { force: true });
    throw error;
  });
}

function parseStore(text: string): Folders | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || (value as { version?: unknown }).version !== 1) return undefined;
  const folders = (value as { folders?: unknown }).folders;
  if (typeof folders !== 'object' || folders === null || Array.isArray(folders)) return undefined;
  // No prototype: a key `__proto__` in a hand-edited file is a key like any other.
  const kept: Folders = Object.create(null) as Folders;
  for (const [folder, entry] of Object.entries(folders as Record<string, unknown>)) {
    const { hash, trustedAt } = (entry ?? {}) as Partial<TrustedFolder>;
    if (typeof hash === 'string' && /^sha256:[0-9a-f]{64}$/.test(hash) && typeof trustedAt === 'string') kept[folder] = { hash, trustedAt };
  }
  return kept;
}
