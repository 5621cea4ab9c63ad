/**
 * How every process that runs in a task's copy is started (an agent's command, a check, a hook): the shell
 * line in the copy's view, inside the OS sandbox over that copy when there is one. One place, so the three
 * cannot drift apart in what the sandbox hides or lets through.
 */
import type { CommandCopy } from './command-copy.js';
import type { CommandHost } from './command-host.js';
import { commandLaunch, type CommandLaunch } from './sandbox/command-launch.js';
import type { SandboxState } from './sandbox/sandbox-state.js';

export interface CopyLaunchOptions {
  command: string;
  copy: CommandCopy;
  /** The whole environment the process gets (the host's, plus what the caller adds). */
  environment: Record<string, string>;
  host: Pick<CommandHost, 'limits' | 'workspaceRoot' | 'userHome'>;
  state: SandboxState;
  /** Whether the sandbox lets the process reach the network. */
  network: boolean;
  /** Folders outside the copy the sandboxed process may also read (a hook's own scripts); default none. */
  extraReadOnly?: readonly string[];
}

export async function launchInCopy(options: CopyLaunchOptions): Promise<CommandLaunch> {
  const { copy, state, host } = options;
  const paths = copy.sandboxPaths;
  const sandboxPaths = options.extraReadOnly?.length
    ? { writable: paths.writable, readOnly: [...paths.readOnly, ...options.extraReadOnly] }
    : paths;
  const launch = await commandLaunch({
    command: options.command,
    cwd: copy.cwd,
    environment: options.environment,
    limits: host.limits,
    ...(state.mode === 'sandbox'
      ? {
          sandbox: {
            availability: state.availability,
            workspaceRoot: host.workspaceRoot,
            userHome: host.userHome,
            copy: sandboxPaths,
            network: options.network,
          },
        }
      : {}),
  });
  return copy.launch(launch);
}
