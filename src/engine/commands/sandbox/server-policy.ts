/**
 * What a role's or the workspace's MCP server may touch in the sandbox: the policy of a command
 * (sandbox-policy.ts) over a scratch copy of its own, so it sees what a command sees — the workspace as
 * its task saw it when it started, ignored and sensitive files (`.env`) masked, a private empty home, no
 * network unless allowed — plus the folder of its own program when the user's `PATH` finds it through a
 * link into the home (a pipx or `uv tool` install behind `~/.local/bin`).
 *
 * What still starts:
 * - a program on the user's `PATH` outside the home (`/usr/bin`, `/usr/local/bin`, a global `npm i -g`
 *   into the system's prefix), or in a toolchain folder `PATH` points into under the home (`~/.nvm`,
 *   `~/.cargo/bin`, `~/.local/bin` and what its links lead to), read back read-only;
 * - a program in the workspace (`./server.js`, `node_modules/.bin`), relative to the copy it runs in;
 * - a program or script its command line names under /tmp, with its folder (server-temporary-files.ts);
 * - `npx <package>` when the package is in the workspace's `node_modules` or installed globally in a
 *   read-back prefix; with the network (`network: true` and allowed) npx downloads it into the private
 *   home's cache, anew for every task.
 * What does not:
 * - `npx <package>` from the user's own npx cache (`~/.npm/_npx`) without the network: npx asks the
 *   registry even on a hit and writes a lock there, so a read-only cache would not help, and a writable
 *   one would let a server plant code that the user's next `npx` runs;
 * - a program or script elsewhere in the home (`node ~/servers/x.js`, a `pip install --user` package in
 *   `~/.local/lib`), or an absolute path into the real workspace (hidden: the copy is at another place).
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { credentialFilesIn } from './credential-files.js';
import { temporaryProgramPaths } from './server-temporary-files.js';
import { temporaryDependencyFolders } from './temporary-dependencies.js';
import { commandPolicy, existingPaths, isInside, realPathOf, type SandboxPolicy } from './sandbox-policy.js';
import { toolchainFolders } from './toolchain-folders.js';

export interface ServerPolicyInput {
  /** The server's program, as its configuration names it. */
  command: string;
  /** Its arguments as configured: a script under /tmp they name is read back (server-temporary-files.ts). Default: none. */
  args?: readonly string[];
  /** The scratch copy it runs in (CommandCopy.sandboxPaths) and its place there. */
  copy: { writable: string[]; readOnly: string[] };
  cwd: string;
  workspaceRoot: string;
  userHome: string;
  /**
   * The USER's environment (what commands get): its PATH and toolchain variables decide what is read
   * back. Never the server's own `env`, which the role file writes (`PATH: ~/.config/gh/bin`).
   */
  userEnvironment: Readonly<Record<string, string>>;
  network: boolean;
}

export function serverPolicy(input: ServerPolicyInput): SandboxPolicy {
  const workspaceRoot = realPathOf(input.workspaceRoot) ?? input.workspaceRoot;
  const userHome = realPathOf(input.userHome) ?? input.userHome;
  const policy = commandPolicy({
    copy: { writable: existingPaths(input.copy.writable), readOnly: existingPaths(input.copy.readOnly) },
    cwd: input.cwd,
    workspaceRoot,
    userHome,
    environment: input.userEnvironment,
    network: input.network,
  });
  const program = programFolders(input.command, input.userEnvironment.PATH ?? '', policy.hidden, userHome, workspaceRoot);
  const keptHidden = [workspaceRoot, userHome, ...input.copy.writable, ...input.copy.readOnly];
  const temporary = temporaryProgramPaths({ words: [input.command, ...(input.args ?? [])], keptHidden });
  // The dependency links of the workspace, the cwd and the server's own folder read back (its `node_modules -> /tmp/clone/node_modules`).
  const dependencies = temporaryDependencyFolders({ folders: [workspaceRoot, input.cwd, ...temporary], keptHidden });
  policy.hidden = existingPaths(policy.hidden);
  policy.readOnly = existingPaths([
    ...policy.readOnly,
    ...program,
    ...temporary,
    ...dependencies,
    ...(input.network ? resolverFiles(policy.hidden) : []),
  ]);
  policy.hiddenFiles = [...new Set([...(policy.hiddenFiles ?? []), ...credentialFilesIn([...program, ...temporary, ...dependencies])])];
  return policy;
}

/**
 * The folder of the server's program when the user's PATH finds it through a link into a hidden folder,
 * by the same rules as a toolchain (its `bin`'s parent; never the home, a credential folder or the
 * workspace). Only a bare name found on the user's PATH: a path the role file writes chooses nothing.
 */
export function programFolders(
  command: string,
  searchPath: string,
  hidden: readonly string[],
  userHome: string,
  workspaceRoot: string,
): string[] {
  if (command.includes('/') || command.includes('\\')) return [];
  for (const entry of searchPath.split(path.delimiter).filter((folder) => path.isAbsolute(folder))) {
    const found = path.join(entry, command);
    if (!isExecutable(found)) continue;
    const real = realPathOf(found);
    if (real === undefined || real === found) return [];
    return toolchainFolders({ PATH: path.dirname(real) }, hidden, userHome, workspaceRoot);
  }
  return [];
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** With the network on, the resolver's configuration must be readable although /run is hidden (as for commands). */
function resolverFiles(hidden: readonly string[]): string[] {
  const target = realPathOf('/etc/resolv.conf');
  return target !== undefined && hidden.some((folder) => isInside(target, folder)) ? [target] : [];
}
