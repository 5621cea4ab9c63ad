/**
 * Limits on what one command may consume, set as hard limits by the shell that starts it (so the command
 * cannot raise them past them): CPU time, the size of any file it writes, and the number of processes. A
 * limit that was hit is told to the agent as such, not as a bare signal.
 */

export interface ResourceLimits {
  /** CPU seconds (all its processes' own; a busy loop ends at this). Default 600. */
  cpuSeconds: number;
  /** The largest file it may write, in bytes. Default 1 GiB. */
  fileBytes: number;
  /**
   * Processes of the user at once (the kernel counts the user's, not only the command's: RLIMIT_NPROC).
   * Default 4096. Not enforced for root outside a user namespace.
   */
  processes: number;
}

export const defaultResourceLimits: ResourceLimits = { cpuSeconds: 600, fileBytes: 1024 ** 3, processes: 4096 };

/**
 * The argv that runs `command` under `limits` with bash (`sh` has no `ulimit -u` everywhere). A limit the
 * system does not allow lowering to is skipped rather than failing the command.
 */
export function limitedShell(shell: string, command: string, limits: ResourceLimits): string[] {
  const kibibytes = Math.max(1, Math.floor(limits.fileBytes / 1024));
  // The hard CPU limit a second above the soft one: at the soft one the kernel sends SIGXCPU, which says
  // why; at the hard one it sends SIGKILL, which would not.
  const script = [`ulimit -H -t ${whole(limits.cpuSeconds) + 1} 2>/dev/null`, `ulimit -S -t ${whole(limits.cpuSeconds)} 2>/dev/null`, `ulimit -S -H -f ${kibibytes} 2>/dev/null`, `ulimit -S -H -u ${whole(limits.processes)} 2>/dev/null`, `exec ${shell} -c "$1"`].join('; ');
  return [shell, '-c', script, 'agent-team-limits', command];
}

/** The sentence for a command that ended on a limit, or undefined when it did not. */
export function limitHit(result: { exitCode: number | null; signal: string | null; stderr?: { text: string } }, limits: ResourceLimits): string | undefined {
  const signal = result.signal ?? (result.exitCode !== null && result.exitCode > 128 ? signalName(result.exitCode - 128) : undefined);
  if (signal === 'SIGXCPU') return `The command hit its CPU-time limit (${limits.cpuSeconds} s of CPU) and was ended.`;
  if (signal === 'SIGXFSZ') return `The command hit its file-size limit (${Math.round(limits.fileBytes / 1024 ** 2)} MiB for one file) and was ended.`;
  // No signal for the process limit: a fork fails, and the shell (or the program) says so.
  if (result.exitCode !== 0 && /fork: (?:retry: )?Resource temporarily unavailable|EAGAIN.*(?:spawn|fork)/i.test(result.stderr?.text ?? '')) {
    return `The command hit its process limit (${limits.processes} processes of the user) and could not start more.`;
  }
  return undefined;
}

function signalName(number: number): string | undefined {
  // Linux numbering; the two limits' signals are 24 and 25 on every Linux architecture Node supports.
  return number === 24 ? 'SIGXCPU' : number === 25 ? 'SIGXFSZ' : undefined;
}

function whole(value: number): number {
  return Math.max(1, Math.floor(value));
}
