/**
 * Dependency folders under /tmp or /var/tmp, read back into the sandbox. Every sandboxed process gets a
 * private, empty /tmp and /var/tmp (bubblewrap.ts, sandbox-policy.ts), so a workspace whose `node_modules`
 * is a link to a folder there (a clone under /tmp sharing another clone's install, as CI does) found
 * nothing at the link's end: "Cannot find module" for every check and command. Anywhere else outside the
 * home and the workspace the system is read-only in view already.
 *
 * What comes back, read-only, is the real target of a dependency link (a name of `linkedDirectoryNames`:
 * `node_modules`, `.venv`, `venv`) at the top of a folder the process runs in, and only when:
 * - the target is a directory below /tmp or /var/tmp (never one of them itself);
 * - its own name is a dependency name too: a repository's `node_modules -> /tmp/ssh-XXXX` names a folder
 *   the repository chose, and must not bring an ssh-agent's socket folder back into view;
 * - it and every folder above it there are the user's or root's alone (no group or other write: nobody
 *   else may have put it there, or swap it between this check and the mount);
 * - it neither is nor holds the real workspace, the home or the scratch copy (their hiding must stand).
 * Credential files inside are hidden by the callers, as for other folders read back.
 */
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import { linkedDirectoryNames } from '../scratch-copy-creation.js';
import { isInside, realPathOf } from './sandbox-policy.js';
import { ownedAlone, privateTemporaryFolders } from './server-temporary-files.js';

export interface TemporaryDependencyInput {
  /** Folders the process runs in (the workspace's root in the copy or view, its cwd, a server's folder): their dependency links are followed. */
  folders: readonly string[];
  /** Folders a target must neither be nor hold: the real workspace, the home, the scratch copy's paths. */
  keptHidden: readonly string[];
  /** The user the engine runs as, who may own what is read back. Default: process.getuid(). */
  uid?: number;
}

/** The real dependency folders under /tmp or /var/tmp to read back read-only; none when nothing qualifies. */
export function temporaryDependencyFolders(input: TemporaryDependencyInput): string[] {
  const uid = input.uid ?? process.getuid?.();
  const kept = input.keptHidden
    .filter((folder) => folder !== '')
    .flatMap((folder) => [folder, realPathOf(folder) ?? folder])
    .map((folder) => path.normalize(folder));
  const found = new Set<string>();
  for (const folder of input.folders) {
    for (const name of linkedDirectoryNames) {
      const target = linkTarget(path.join(folder, name));
      if (target !== undefined && qualifies(target, kept, uid)) found.add(target);
    }
  }
  return [...found];
}

/** The real path a link at `entry` leads to; undefined when it is no link (a folder of its own is in the copy already) or leads nowhere. */
function linkTarget(entry: string): string | undefined {
  try {
    if (!lstatSync(entry, { throwIfNoEntry: false })?.isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  return realPathOf(entry);
}

function qualifies(target: string, kept: readonly string[], uid: number | undefined): boolean {
  const temporary = privateTemporaryFolders.find((folder) => target !== folder && isInside(target, folder));
  if (temporary === undefined || !linkedDirectoryNames.has(path.basename(target)) || !isDirectory(target)) return false;
  if (kept.some((hidden) => isInside(hidden, target))) return false;
  const parts = path
    .relative(temporary, target)
    .split(path.sep)
    .filter((part) => part !== '');
  // Every folder from the top one under the temporary folder down to the target itself.
  return parts.every((_, index) => ownedAlone(path.join(temporary, ...parts.slice(0, index + 1)), uid));
}

function isDirectory(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
