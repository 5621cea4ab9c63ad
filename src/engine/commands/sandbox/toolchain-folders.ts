/**
 * The toolchain folders a command needs that the policy's hidden folders would take away (a compiler in
 * `~/.cargo`, a node under `~/.nvm`), and the credential folders of a home that are never read back.
 */
import path from 'node:path';
import { isInside as isWithinFolder } from '../../workspace/paths.js';

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
  const isInside = (folder: string, root: string) => isWithinFolder(root, folder);
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

function unique(folders: readonly string[]): string[] {
  return [...new Set(folders.map((folder) => path.normalize(folder)))];
}
