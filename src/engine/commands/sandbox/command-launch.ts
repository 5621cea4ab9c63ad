/**
 * How one command is started: the shell line under its resource limits, inside the OS sandbox when there
 * is one (bubblewrap on Linux, Seatbelt on macOS), with the environment it gets there. The command carries
 * a mark, so that whatever it leaves running is found and ended with it: without a sandbox that is the
 * only way; in bubblewrap's PID namespace, the way after a stop or a timeout (see `ownPidNamespace`).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { bubblewrapArguments } from './bubblewrap.js';
import { credentialFilesIn } from './credential-files.js';
import { commandMarkVariable } from './marked-processes.js';
import { limitedShell, type ResourceLimits } from './resource-limits.js';
import type { SandboxAvailability } from './sandbox-availability.js';
import { commandPolicy, existingPaths, isInside, realPathOf } from './sandbox-policy.js';
import { seatbeltProfile } from './seatbelt.js';
import { temporaryDependencyFolders } from './temporary-dependencies.js';

export interface CommandLaunch {
  file: string;
  args: string[];
  environment: Record<string, string>;
  /** The mark of the command's processes (`killMarkedProcesses`). */
  mark?: string;
  /**
   * True when the command runs as the first process of a PID namespace of its own (bubblewrap): once it
   * has exited, the kernel has ended every process it left, so a normal end needs no search for the mark
   * (4-10 ms a command, B13); a stop or a timeout, which kills from outside, still searches.
   */
  ownPidNamespace?: boolean;
}

export interface CommandSandbox {
  availability: Extract<SandboxAvailability, { available: true }>;
  /** The user's real workspace, hidden from the command. */
  workspaceRoot: string;
  /** The user's home, hidden from the command. */
  userHome: string;
  /** The scratch copy (ScratchCopy.sandboxPaths). */
  copy: { writable: string[]; readOnly: string[] };
  network: boolean;
}

export interface LaunchOptions {
  command: string;
  cwd: string;
  environment: Record<string, string>;
  limits: ResourceLimits;
  /** Undefined: no sandbox (none here and the user allowed that, or turned it off). */
  sandbox?: CommandSandbox;
  platform?: NodeJS.Platform;
}

/** The shell commands run in: bash where there is one (agents write bash), else the system's sh. */
export function commandShell(): { path: string; variant: 'bash' | 'sh' } {
  return existsSync('/bin/bash') ? { path: '/bin/bash', variant: 'bash' } : { path: '/bin/sh', variant: 'sh' };
}

export async function commandLaunch(options: LaunchOptions): Promise<CommandLaunch> {
  const platform = options.platform ?? process.platform;
  if (platform === 'win32')
    return {
      file: options.environment.ComSpec ?? process.env.ComSpec ?? 'cmd.exe',
      args: ['/d', '/s', '/c', `"${options.command}"`],
      environment: options.environment,
    };
  const shell = commandShell();
  const argv = shell.variant === 'bash' ? limitedShell(shell.path, options.command, options.limits) : [shell.path, '-c', options.command];
  const mark = randomUUID();
  const marked = { ...options.environment, [commandMarkVariable]: mark };
  if (!options.sandbox) return { file: argv[0], args: argv.slice(1), environment: marked, mark };
  const { sandbox } = options;
  const policy = commandPolicy({
    copy: { writable: existingPaths(sandbox.copy.writable), readOnly: existingPaths(sandbox.copy.readOnly) },
    cwd: options.cwd,
    workspaceRoot: realPathOf(sandbox.workspaceRoot) ?? sandbox.workspaceRoot,
    userHome: realPathOf(sandbox.userHome) ?? sandbox.userHome,
    environment: options.environment,
    network: sandbox.network,
  });
  // As root the user inside owns root's files: root's home is hidden even when HOME names another.
  policy.hidden = existingPaths([...policy.hidden, ...(process.getuid?.() === 0 ? ['/root'] : [])]);
  // A dependency link of the workspace (seen through the view) or the cwd whose folder is under the private /tmp.
  const dependencies = temporaryDependencyFolders({
    folders: [sandbox.workspaceRoot, options.cwd],
    keptHidden: [sandbox.workspaceRoot, sandbox.userHome, ...sandbox.copy.writable, ...sandbox.copy.readOnly],
  });
  policy.readOnly = existingPaths([...policy.readOnly, ...dependencies, ...(sandbox.network ? resolverFiles(policy.hidden) : [])]);
  policy.hiddenFiles = [...new Set([...(policy.hiddenFiles ?? []), ...credentialFilesIn(dependencies)])];
  if (sandbox.availability.mechanism === 'bubblewrap') {
    return {
      file: sandbox.availability.executable,
      args: bubblewrapArguments(policy, argv, { temporaryBytes: options.limits.temporaryBytes }),
      environment: { ...marked, HOME: policy.home, TMPDIR: '/tmp' },
      mark,
      ownPidNamespace: true,
    };
  }
  // Seatbelt has no private mounts: the home and temporary folder are made inside the copy's own folder.
  const own = sandbox.copy.writable[0];
  const home = path.join(own, 'home');
  const temporary = path.join(own, 'tmp');
  await Promise.all([mkdir(home, { recursive: true }), mkdir(temporary, { recursive: true })]);
  return {
    file: sandbox.availability.executable,
    args: ['-p', seatbeltProfile({ ...policy, home }, temporary), ...argv],
    environment: { ...marked, HOME: home, TMPDIR: temporary },
    mark,
  };
}

/** With the network on, the resolver's configuration must be readable although /run is hidden. */
function resolverFiles(hidden: readonly string[]): string[] {
  const target = realPathOf('/etc/resolv.conf');
  return target !== undefined && hidden.some((folder) => isInside(target, folder)) ? [target] : [];
}
