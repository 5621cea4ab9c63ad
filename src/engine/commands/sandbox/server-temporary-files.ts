/**
 * A server's own program or script under /tmp or /var/tmp, read back into the sandbox. Every sandboxed
 * process gets a private, empty /tmp and /var/tmp (bubblewrap.ts, sandbox-policy.ts), so the sockets and
 * files other processes keep there (an ssh-agent's, VS Code's IPC socket, X11's) are out of reach. But a
 * server whose program lies there (a clone or a release unpacked under /tmp, as CI does with this very
 * repository) then found nothing at its path and never started: "Unknown tool mcp__calc__add". Anywhere
 * else outside the home and the workspace the system is read-only in view, so a server in /opt starts;
 * the temporary folders were where a configured program vanished.
 *
 * What comes back, read-only, is what the server's command line names, and only that:
 * - a word that is an absolute path (the program, or a script argument) whose real path is a regular file
 *   under one of them, never a socket, FIFO or folder argument (a server's data folder stays out of view);
 * - with the folder that holds it, widened up to its top folder there (`/tmp/clone` for
 *   `/tmp/clone/test/server.mjs`), since a script imports its neighbours and `node_modules` beside them;
 *   narrowed when a wider folder would be /tmp itself, would hold the real workspace, the home or a scratch
 *   copy (their hiding must stand), or is not the user's or root's alone (writable by a group or others:
 *   a shared folder, where other users' sockets live);
 * - the file alone when none of its folders qualifies.
 * Credential files inside a folder read back are hidden (server-policy.ts), as for toolchains.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { isInside, realPathOf } from './sandbox-policy.js';

/** The temporary folders the sandbox makes private and empty (bubblewrap's `--tmpfs /tmp`; /var/tmp is hidden). */
export const privateTemporaryFolders: readonly string[] = ['/tmp', '/var/tmp'];

export interface TemporaryProgramInput {
  /** The server's program and arguments, as configured (before they are mapped into the copy). */
  words: readonly string[];
  /** Folders a read-back folder must not hold: the real workspace, the home, the scratch copy's paths. */
  keptHidden: readonly string[];
  /** The user the engine runs as, who may own what is read back. Default: process.getuid(). */
  uid?: number;
}

/** The folders (or single files) under /tmp or /var/tmp to read back read-only for this server; none when nothing qualifies. */
export function temporaryProgramPaths(input: TemporaryProgramInput): string[] {
  const uid = input.uid ?? process.getuid?.();
  const kept = input.keptHidden.flatMap((folder) => [folder, realPathOf(folder) ?? folder]).map((folder) => path.normalize(folder));
  const found = new Set<string>();
  for (const word of input.words) {
    if (!path.isAbsolute(word)) continue;
    const real = realPathOf(word);
    const temporary = privateTemporaryFolders.find((folder) => real !== undefined && real !== folder && isInside(real, folder));
    if (real === undefined || temporary === undefined) continue;
    // Inside the real workspace or the home it is theirs to hide (a workspace word runs from the copy).
    if (!isRegularFile(real) || kept.some((hidden) => isInside(real, hidden))) continue;
    found.add(widest(real, temporary, kept, uid));
  }
  return [...found];
}

/** The widest folder above `file` (below `temporary`) that may come back, else the file itself. */
function widest(file: string, temporary: string, kept: readonly string[], uid: number | undefined): string {
  const parts = path
    .relative(temporary, path.dirname(file))
    .split(path.sep)
    .filter((part) => part !== '');
  // From the top folder under the temporary folder down to the file's own.
  const chain = parts.map((_, index) => path.join(temporary, ...parts.slice(0, index + 1)));
  const fits = (index: number) =>
    !kept.some((hidden) => isInside(hidden, chain[index]!)) && chain.slice(index).every((folder) => ownedAlone(folder, uid));
  const index = chain.findIndex((_, candidate) => fits(candidate));
  return index === -1 ? file : chain[index]!;
}

/** True when `folder` is the user's or root's and no group or other may write it (a shared folder is where other users' files live). */
export function ownedAlone(folder: string, uid: number | undefined): boolean {
  try {
    const info = statSync(folder);
    return (info.uid === 0 || info.uid === uid) && (info.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function isRegularFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
