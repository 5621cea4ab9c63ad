/**
 * The secret that signs run logs (run-log-signature.ts): one random 32-byte key per user, kept outside
 * every workspace in `<home>/.agent-team/keys/run-log.key` (a 0700 folder, a 0600 file, both the user's
 * own, neither a link), and per run folder a key derived from it with HMAC and the folder's real path.
 * A repository can hold run files, never this key: a run log it planted, edited or copied from another
 * folder does not verify. When the key cannot be had (a home that is not writable, a key folder others
 * can read), the problem is given back instead: the hosts say it, and treat every run as foreign.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, lstat, mkdir, open, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../errors.js';

/** What signs the runs of one folder: its key, or why there is none. */
export type RunSigning = { key: Buffer } | { problem: string };

const keyBytes = 32;
const noFollow = constants.O_NOFOLLOW ?? 0;
const nonBlocking = constants.O_NONBLOCK ?? 0;

/** `<home>/.agent-team/keys`: where the user's key lives. */
export function keyFolderOf(home: string): string {
  return path.join(home, '.agent-team', 'keys');
}

/** The key for the run folder `directory` (which must exist), from the user's key under `home`; created on first use. */
export async function runFolderSigning(home: string, directory: string): Promise<RunSigning> {
  try {
    const secret = await userKey(keyFolderOf(home));
    // The real path: the same folder reached through a link signs alike, a copy elsewhere does not.
    const folder = await realpath(directory);
    return { key: createHmac('sha256', secret).update(`agent-team run folder\n${folder}`).digest() };
  } catch (error) {
    return {
      problem: `the key that signs run logs (${path.join(keyFolderOf(home), 'run-log.key')}) cannot be used: ${errorMessage(error)}`,
    };
  }
}

async function userKey(folder: string): Promise<Buffer> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const status = await lstat(folder);
  if (status.isSymbolicLink() || !status.isDirectory())
    throw new Error(`${folder} is ${status.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}`);
  ownedPrivately(status, folder);
  const file = path.join(folder, 'run-log.key');
  return (await readKey(file)) ?? (await createKey(file));
}

/** The key, or undefined when there is none yet; throws for a file that is not a private key of this user. */
async function readKey(file: string): Promise<Buffer | undefined> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | noFollow | nonBlocking);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const status = await handle.stat();
    if (!status.isFile() || status.size !== keyBytes)
      throw new Error(
        `${file} is not a key (${status.isFile() ? `${status.size} bytes, not ${keyBytes}` : 'not a regular file'}); remove it and a new one is made (runs signed with it become foreign)`,
      );
    ownedPrivately(status, file);
    const key = Buffer.alloc(keyBytes);
    const { bytesRead } = await handle.read(key, 0, keyBytes, 0);
    if (bytesRead !== keyBytes) throw new Error(`${file} could not be read whole`);
    return key;
  } finally {
    await handle.close();
  }
}

/** Written whole to a file of its own, then linked into place: another process making one at the same time wins or loses whole. */
async function createKey(file: string): Promise<Buffer> {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow, 0o600);
  try {
    await handle.write(randomBytes(keyBytes));
    await handle.sync();
    await handle.close();
    await link(temporary, file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  } finally {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
  }
  const key = await readKey(file);
  if (!key) throw new Error(`${file} vanished as it was made`);
  return key;
}

/** The user's own, and nobody else's to read or write (where the system has owners and modes). */
function ownedPrivately(status: { uid: number; mode: number }, name: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  if (status.uid !== uid) throw new Error(`${name} belongs to another user (uid ${status.uid})`);
  if ((status.mode & 0o077) !== 0)
    throw new Error(`${name} can be read or written by others (mode ${(status.mode & 0o777).toString(8)}); chmod go-rwx it`);
}
