/**
 * The programs the sandbox stands on (bubblewrap, and unshare, mount, nsenter, umount for the overlay) are
 * taken from the system's own folders, never from PATH: a repository's `bin/bwrap` on PATH (direnv's
 * `PATH_add bin`) would otherwise replace the sandbox, run every command as the user and still be
 * reported as the sandbox. A program there is used only when no one but root (or this user) could have
 * put it there or changed it: the file and every folder above it — and above each link on the way to it —
 * owned by root or this user and writable by no group or other user. A setuid program is fine.
 */
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** Where these programs are looked for, in this order: the distribution's folders, then the administrator's. */
export const trustedProgramFolders: readonly string[] = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin', '/usr/local/sbin'];

/** Found, or why not: `missing` when there is none at all, else the first one refused. */
export type TrustedProgram = { path: string } | { reason: string; missing: boolean };

/** Links followed before a chain is judged a loop (the kernel's own limit is 40). */
const maximumLinks = 40;

/**
 * The first `name` in `folders` that passes the checks; else why none did (the first refusal, or "not found").
 * `uid`: this process's user, who may own the program too. Default: process.getuid().
 */
export async function findTrustedProgram(
  name: string,
  folders: readonly string[] = trustedProgramFolders,
  uid: number | undefined = process.getuid?.(),
): Promise<TrustedProgram> {
  let refusal: string | undefined;
  for (const folder of folders) {
    const candidate = path.join(folder, name);
    if (!(await lstat(candidate).catch(() => undefined))) continue;
    const reason = await untrustedReason(candidate, uid);
    if (reason === undefined) return { path: candidate };
    refusal ??= `${candidate} is not used: ${reason}`;
  }
  return refusal !== undefined
    ? { reason: refusal, missing: false }
    : { reason: `${name} was not found in ${folders.join(', ')}`, missing: true };
}

/** Why `file` cannot be trusted, or undefined when it can: each link's folder, then the file and its folders. */
export async function untrustedReason(file: string, uid: number | undefined): Promise<string | undefined> {
  let current = file;
  for (let hop = 0; hop <= maximumLinks; hop++) {
    const folderReason = await folderChainReason(path.dirname(current), uid);
    if (folderReason !== undefined) return folderReason;
    const entry = await lstat(current).catch(() => undefined);
    if (!entry) return `${current} does not exist`;
    if (entry.isSymbolicLink()) {
      current = path.resolve(path.dirname(current), await readlink(current));
      continue;
    }
    if (!entry.isFile()) return `${current} is not a regular file`;
    if ((entry.mode & 0o111) === 0) return `${current} is not executable`;
    return ownershipReason(current, entry, uid);
  }
  return `${file}: too many links`;
}

/** The folder (its real path) and each one above it up to `/`. */
async function folderChainReason(folder: string, uid: number | undefined): Promise<string | undefined> {
  const real = await realpath(folder).catch(() => undefined);
  if (real === undefined) return `${folder} cannot be resolved`;
  for (let current = real; ; current = path.dirname(current)) {
    const info = await stat(current).catch(() => undefined);
    if (!info) return `${current} cannot be read`;
    const reason = ownershipReason(current, info, uid);
    if (reason !== undefined) return reason;
    if (current === path.dirname(current)) return undefined;
  }
}

function ownershipReason(entry: string, info: { uid: number; mode: number }, uid: number | undefined): string | undefined {
  if (info.uid !== 0 && info.uid !== uid) return `${entry} belongs to another user (uid ${info.uid})`;
  if ((info.mode & 0o022) !== 0) return `${entry} is writable by ${(info.mode & 0o002) !== 0 ? 'every user' : 'its group'}`;
  return undefined;
}
