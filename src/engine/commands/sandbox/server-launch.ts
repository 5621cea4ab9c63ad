/**
 * How an MCP server a role file names is started in the OS sandbox. The system and the user's files are
 * there read-only — the workspace too: the server is a tool for reading it, and its edits must go through
 * the agents' proposals and the user's review, never straight to the files — with the home's credential
 * folders and files hidden and the sockets under /run out of reach. It writes only a private /tmp and
 * home. The network is on (such servers often are clients of a service). Unlike a command, it may read
 * the rest of the home: servers are installed there (`~/.local`, an `npx` package, a script of the
 * user's). A write it tries fails with a read-only file system, and the agent is told why.
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { CommandHost } from '../command-host.js';
import { bubblewrapArguments } from './bubblewrap.js';
import type { SandboxAvailability } from './sandbox-availability.js';
import { credentialFolders, existingPaths, sandboxHome, type SandboxPolicy } from './sandbox-policy.js';
import { seatbeltProfile } from './seatbelt.js';

export interface ServerLaunch {
  command: string;
  args: string[];
  environment: Record<string, string>;
}

/** What the agent is told about a sandboxed server's tools. */
export const readOnlyServerNote = "The workspace is read-only to this MCP server (it runs in the OS sandbox): a write it attempts fails; propose file changes with Edit or Write instead, for the user's review.";

export async function sandboxedServerLaunch(
  availability: Extract<SandboxAvailability, { available: true }>,
  server: { command: string; args: readonly string[]; environment: Record<string, string> },
  place: { workspaceRoot: string; userHome: string },
): Promise<ServerLaunch> {
  const home = await realpath(place.userHome).catch(() => place.userHome);
  const workspace = await realpath(place.workspaceRoot).catch(() => place.workspaceRoot);
  const credentials = await Promise.all(credentialFolders.map(async (name) => ({ path: path.join(home, name), stat: await lstat(path.join(home, name)).catch(() => undefined) })));
  const policy: SandboxPolicy = {
    writable: [],
    // Read-only like everything, and bound again: under /tmp the private /tmp would hide it.
    readOnly: [workspace],
    hidden: existingPaths([...credentials.filter((entry) => entry.stat?.isDirectory()).map((entry) => entry.path), '/run', '/var/run']),
    hiddenFiles: credentials.filter((entry) => entry.stat?.isFile()).map((entry) => entry.path),
    network: true,
    cwd: workspace,
    home: sandboxHome,
  };
  const argv = [server.command, ...server.args];
  if (availability.mechanism === 'bubblewrap') {
    return { command: availability.executable, args: bubblewrapArguments(policy, argv), environment: { ...server.environment, HOME: policy.home, TMPDIR: '/tmp' } };
  }
  return { command: availability.executable, args: ['-p', seatbeltProfile(policy, '/private/tmp'), ...argv], environment: server.environment };
}

/** The `McpConnectOptions.sandbox` of a host: its servers go where its commands go, in the sandbox or not. */
export function serverSandbox(commands: Pick<CommandHost, 'sandbox' | 'workspaceRoot' | 'userHome'>) {
  return async (server: { command: string; args: readonly string[]; environment: Record<string, string> }) => {
    const state = await commands.sandbox();
    if (state.mode !== 'sandbox') return undefined;
    const launch = await sandboxedServerLaunch(state.availability, server, { workspaceRoot: commands.workspaceRoot, userHome: commands.userHome });
    return { ...launch, note: readOnlyServerNote };
  };
}
