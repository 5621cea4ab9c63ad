/**
 * What a sandboxed process may touch, independent of the OS mechanism that enforces it (bubblewrap on
 * Linux, Seatbelt on macOS). A command gets the system read-only, its scratch copy writable, a private
 * /tmp and home, and nothing of the user's own: their home (keys, cloud credentials, tokens in dotfiles),
 * their real workspace (ignored files such as `.env` are not in the copy), the sockets under /run (a
 * Docker or D-Bus socket is a way out of any sandbox that can reach it).
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { isInside as isWithinFolder } from '../../workspace/paths.js';
import { credentialFilesIn } from './credential-files.js';
import { toolchainFolders } from './toolchain-folders.js';

export interface SandboxPolicy {
  /** Directories the process may write (the scratch copy). */
  writable: string[];
  /** Directories it may read although they lie under a hidden one (linked dependencies, borrowed git objects, toolchains). */
  readOnly: string[];
  /** Directories replaced by an empty one: the user's home, the real workspace, /run. */
  hidden: string[];
  /**
   * Files replaced by an empty one, over every folder read back (credentials kept in single files:
   * ~/.netrc, ~/.cargo/credentials.toml). Existing regular files only, by their real paths. Default: none.
   */
  hiddenFiles?: string[];
  /** True: the host's network; false: none at all (not even loopback's services). */
  network: boolean;
  /** The working directory, inside a writable one. */
  cwd: string;
  /** HOME inside: an empty, private, writable folder. */
  home: string;
}

export interface CommandPolicyInput {
  /** The scratch copy: what the command may write, and what it reads outside it. */
  copy: { writable: string[]; readOnly: string[] };
  cwd: string;
  /** The user's real workspace (hidden: the command works on the copy). */
  workspaceRoot: string;
  /** The host's home directory (hidden). */
  userHome: string;
  /** The command's PATH and toolchain variables: where they point under a hidden folder is read back. */
  environment: Readonly<Record<string, string>>;
  network: boolean;
}

/** The private home every sandboxed process sees (under the private /tmp). */
export const sandboxHome = '/tmp/home';

export function commandPolicy(input: CommandPolicyInput): SandboxPolicy {
  const hidden = unique(
    [input.userHome, input.workspaceRoot, '/run', '/var/run', '/var/tmp'].filter((folder) => folder !== '' && folder !== '/'),
  );
  const toolchains = toolchainFolders(input.environment, hidden, input.userHome, input.workspaceRoot);
  return {
    writable: unique(input.copy.writable),
    readOnly: unique([...input.copy.readOnly, ...toolchains]),
    hidden,
    // A toolchain folder comes back whole but for the tokens it keeps (~/.cargo/credentials.toml).
    hiddenFiles: credentialFilesIn(toolchains),
    network: input.network,
    cwd: input.cwd,
    home: sandboxHome,
  };
}

/**
 * True when `folder` is `root` or lies beneath it (absolute POSIX paths: the sandboxes are Linux's and
 * macOS's). The policy asks this for every PATH entry against every hidden and credential folder, so it is
 * the workspace's check, which compares resolved POSIX paths as strings (B13), with the arguments in the
 * order the sandbox's callers read them.
 */
export function isInside(folder: string, root: string): boolean {
  return isWithinFolder(root, folder);
}

/**
 * The real paths of those that exist (a link is followed: a mount must be of what it names), once each.
 * Synchronous on purpose: every command pays for a dozen of them (the home, the workspace, /run, the
 * copy), about 10 µs each this way against 60 µs of CPU each through the thread pool (B13).
 */
export function existingPaths(paths: readonly string[]): string[] {
  const found = paths.map((entry) => realPathOf(entry));
  return [...new Set(found.filter((entry): entry is string => entry !== undefined))];
}

/**
 * The real path of `entry`, or undefined when it does not exist (or cannot be resolved). Most entries asked
 * about do not exist (a dozen credential names per folder read back): an `lstat` that returns nothing for
 * them costs a fifth of a `realpath` that throws, whose error and stack trace were most of a command's
 * policy time (B13: 1.7 of 2.8 ms a launch under load). What it says is the same: a missing entry is missing.
 */
export function realPathOf(entry: string): string | undefined {
  try {
    if (lstatSync(entry, { throwIfNoEntry: false }) === undefined) return undefined;
    return realpathSync.native(entry);
  } catch {
    return undefined;
  }
}

function unique(folders: readonly string[]): string[] {
  return [...new Set(folders.map((folder) => path.normalize(folder)))];
}
