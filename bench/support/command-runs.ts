/**
 * One command run the way `Bash` runs it (sandbox/command-launch.ts, then command-process.ts), in the OS
 * sandbox or not, for the benchmarks that measure what the sandbox costs (B13, B9).
 */
import { homedir } from 'node:os';
import type { CommandCopy } from '../../src/engine/commands/command-copy.js';
import { runCommandProcess } from '../../src/engine/commands/command-process.js';
import { commandLaunch } from '../../src/engine/commands/sandbox/command-launch.js';
import { defaultResourceLimits } from '../../src/engine/commands/sandbox/resource-limits.js';
import type { SandboxAvailability } from '../../src/engine/commands/sandbox/sandbox-availability.js';
import { systemClock } from '../../src/engine/clock.js';
import { now } from './stats.js';

export interface CommandRunPlace {
  cwd: string;
  workspaceRoot: string;
  /** The scratch copy's paths (ScratchCopy.sandboxPaths). */
  copy: { writable: string[]; readOnly: string[] };
}

/**
 * Milliseconds from launching `command` to its end; throws when it did not exit 0. `bare`: outside the
 * sandbox without the search for leftover processes either (the shell alone, for comparison). `copy`: run
 * in that scratch copy's view, as `Bash` does (an overlay is mounted first).
 */
export async function timeCommand(
  command: string,
  place: CommandRunPlace,
  sandbox: Extract<SandboxAvailability, { available: true }> | undefined,
  options: { bare?: boolean; copy?: CommandCopy } = {},
): Promise<number> {
  const started = now();
  const made = await commandLaunch({
    command,
    cwd: place.cwd,
    environment: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    limits: defaultResourceLimits,
    ...(sandbox
      ? { sandbox: { availability: sandbox, workspaceRoot: place.workspaceRoot, userHome: homedir(), copy: place.copy, network: false } }
      : {}),
  });
  const launch = options.copy ? options.copy.launch(made) : made;
  if (options.bare) delete launch.mark;
  const result = await runCommandProcess({
    launch,
    cwd: place.cwd,
    timeoutMs: 60_000,
    signal: new AbortController().signal,
    clock: systemClock,
    stdoutBytes: 4096,
    stderrBytes: 4096,
  });
  const elapsed = now() - started;
  if (result.exitCode !== 0)
    throw new Error(
      `\`${command}\` ${sandbox ? 'in' : 'outside'} the sandbox ended with ${result.exitCode ?? result.signal}: ${result.stderr.text.slice(-300)}`,
    );
  return elapsed;
}
