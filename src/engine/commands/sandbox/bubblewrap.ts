/**
 * The policy as bubblewrap arguments (Linux). Mounts apply in order, so the order carries the policy:
 * the whole system read-only, fresh /dev and /proc (the new PID namespace's: the parent's processes and
 * their environments are not there), a private /tmp of bounded size, empty folders over what is hidden,
 * then, parents first, what is read back and the scratch copy writable, and last the null device over
 * hidden files. `--unshare-all` gives the command its own PID, network, IPC, UTS and cgroup namespaces;
 * bubblewrap stays PID 1 there, so when the command's shell exits every process it left (`setsid -f`, a
 * double fork, `nohup … &`) dies with the namespace.
 *
 * What it may do there is bounded the same way whoever runs it: always a user namespace of its own
 * (`--unshare-user`: bubblewrap skips it for root otherwise, and root's command would keep every
 * capability, enough to remount `/` writable or unmount what hides the home), no capability in it
 * (`--cap-drop ALL`), none to be had again from a user namespace of its own (`--disable-userns`), and as
 * root a user that is not root inside (`sandboxUserId`, which the namespace maps to root outside, so that
 * the copy the engine made stays writable to it; it owns root's other files too, hence root-secrets.ts).
 * Every flag here is in bubblewrap 0.8.0 (`minimumBubblewrapVersion`); sandbox-availability.ts tries
 * this very list before any command runs.
 */
import path from 'node:path';
import { defaultTemporaryBytes } from './resource-limits.js';
import { rootOnlySecrets } from './root-secrets.js';
import { withoutNestedBinds } from './nested-binds.js';
import { isInside, realPathOf, type SandboxPolicy } from './sandbox-policy.js';

export interface BubblewrapOptions {
  /** The private /tmp's size in bytes (the sandbox's HOME is in it too). Default: defaultTemporaryBytes, 1 GiB. */
  temporaryBytes?: number;
  /** The user bubblewrap runs as: root's command gets `sandboxUserId` inside. Default: process.getuid(). */
  hostUid?: number;
  /** As root, what only root may read, hidden besides the policy's own. Default: rootOnlySecrets() (what exists of them here). */
  rootSecrets?: { files: readonly string[]; folders: readonly string[] };
  /** A folder's real path, undefined when it cannot be read: binds nested in another are judged by it. Default: realPathOf (the file system's). */
  realPath?: (folder: string) => string | undefined;
}

/** The first bubblewrap with every flag used here: `--disable-userns` (0.8.0), `--size` (0.7.0), `--cap-drop`. */
export const minimumBubblewrapVersion = '0.8.0';

/** The user and group a root host's command runs as inside (nobody, nogroup). */
export const sandboxUserId = 65534;

/** The empty folders over hidden ones are writable inside; nothing written there is kept, so they hold little. */
const hiddenFolderBytes = 1024 ** 2;

export function bubblewrapArguments(policy: SandboxPolicy, command: readonly string[], options: BubblewrapOptions = {}): string[] {
  const asRoot = (options.hostUid ?? process.getuid?.()) === 0;
  const args = ['--die-with-parent', '--new-session', '--unshare-all', '--unshare-user', '--disable-userns', '--cap-drop', 'ALL'];
  if (asRoot) args.push('--uid', String(sandboxUserId), '--gid', String(sandboxUserId));
  if (policy.network) args.push('--share-net');
  args.push(
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--size',
    String(wholeBytes(options.temporaryBytes ?? defaultTemporaryBytes)),
    '--tmpfs',
    '/tmp',
  );
  // As root the user inside owns root's files: what only root may read is hidden besides.
  const secrets = asRoot ? (options.rootSecrets ?? rootOnlySecrets()) : { files: [], folders: [] };
  // What /tmp's fresh tmpfs already hides needs no mount of its own.
  for (const folder of byDepth([...policy.hidden, ...secrets.folders]).filter((folder) => !isInside(folder, '/tmp')))
    args.push('--size', String(hiddenFolderBytes), '--tmpfs', folder);
  const binds = [
    ...policy.readOnly.map((folder) => ({ folder, writable: false })),
    ...policy.writable.map((folder) => ({ folder, writable: true })),
  ];
  binds.sort((a, b) => depth(a.folder) - depth(b.folder));
  // A folder the bind of one it lies in already shows as it would is not bound again (nested-binds.ts).
  for (const bind of withoutNestedBinds(binds, options.realPath ?? realPathOf))
    args.push(bind.writable ? '--bind' : '--ro-bind', bind.folder, bind.folder);
  // Files last: one in a folder read back (a token in a toolchain's folder) stays hidden.
  for (const file of [...(policy.hiddenFiles ?? []), ...secrets.files]) args.push('--ro-bind', '/dev/null', file);
  args.push('--dir', policy.home, '--chdir', policy.cwd, '--', ...command);
  return args;
}

function byDepth(folders: readonly string[]): string[] {
  return [...folders].sort((a, b) => depth(a) - depth(b));
}

function depth(folder: string): number {
  return path
    .normalize(folder)
    .split('/')
    .filter((part) => part !== '').length;
}

function wholeBytes(bytes: number): number {
  return Math.max(4096, Math.floor(bytes));
}
