/**
 * What a sandboxed process may touch, independent of the OS mechanism that enforces it (bubblewrap on
 * Linux, Seatbelt on macOS). A command gets the system read-only, its scratch copy writable, a private
 * /tmp and home, and nothing of the user's own: their home (keys, cloud credentials, tokens in dotfiles),
 * their real workspace (ignored files such as `.env` are not in the copy), the sockets under /run (a
 * Docker or D-Bus socket is a way out of any sandbox that can reach it).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isInside as isWithinFolder } from '../../workspace/paths.js';
import { credentialFilesIn } from './credential-files.js';

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

/** Variables that name a toolchain's own folder: a compiler in `~/.cargo` must still run. */
const toolchainVariables = [
  'NVM_DIR',
  'NVM_BIN',
  'VOLTA_HOME',
  'FNM_DIR',
  'JAVA_HOME',
  'GOROOT',
  'GOPATH',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'PYENV_ROOT',
  'RBENV_ROOT',
  'SDKMAN_DIR',
  'DENO_INSTALL',
  'BUN_INSTALL',
  'PNPM_HOME',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
];

/** What of a home holds credentials: never read back into a sandbox (credential-files.ts: the files inside a folder that is). */
export const credentialFolders = [
  '.ssh',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.kube',
  '.docker',
  '.gnupg',
  '.password-store',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.config/gh',
];

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
 * The toolchain folders the command needs that a hidden folder would take away: each PATH entry under
 * one (its parent when it is a `bin`, so `lib` comes too, except `~/.local`, which also holds shell
 * histories and keyrings) and each toolchain variable's folder. Never the home itself, a credential
 * folder, nor anything that is, holds or lies in the real workspace: a `<workspace>/bin` on PATH (direnv's
 * `PATH_add bin`) must not bring the hidden workspace back into view.
 */
export function toolchainFolders(
  environment: Readonly<Record<string, string>>,
  hidden: readonly string[],
  userHome: string,
  workspaceRoot = '',
): string[] {
  const home = path.normalize(userHome);
  const local = path.join(home, '.local');
  const credentials = credentialFolders.map((name) => path.join(home, name));
  const entries = (environment.PATH ?? '').split(path.delimiter).filter((entry) => path.isAbsolute(entry));
  const named = toolchainVariables
    .map((name) => environment[name])
    .filter((value): value is string => value !== undefined && path.isAbsolute(value));
  const folders = [
    ...entries.map((entry) =>
      path.basename(entry) === 'bin' && path.dirname(path.normalize(entry)) !== local ? path.dirname(entry) : entry,
    ),
    ...named,
  ].map((folder) => path.normalize(folder));
  const overlaps = (folder: string, other: string) => isInside(folder, other) || isInside(other, folder);
  const touchesWorkspace = (folder: string) => workspaceRoot !== '' && overlaps(folder, workspaceRoot);
  const holdsCredentials = (folder: string) => credentials.some((credential) => overlaps(folder, credential));
  return unique(
    folders.filter(
      (folder) =>
        hidden.some((root) => isInside(folder, root)) && folder !== home && !holdsCredentials(folder) && !touchesWorkspace(folder),
    ),
  );
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

/** The real path of `entry`, or undefined when it does not exist (or cannot be resolved). */
export function realPathOf(entry: string): string | undefined {
  try {
    return realpathSync.native(entry);
  } catch {
    return undefined;
  }
}

function unique(folders: readonly string[]): string[] {
  return [...new Set(folders.map((folder) => path.normalize(folder)))];
}
