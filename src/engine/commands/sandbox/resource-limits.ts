/**
 * Limits on what one command may consume, set as hard limits by the shell that starts it (so the command
 * cannot raise them past them): CPU time, the size of any file it writes, the number of processes and the
 * address space of each process; and, by the sandbox, the size of its private /tmp. A limit that was hit
 * is told to the agent as such, not as a bare signal.
 */

export interface ResourceLimits {
  /** CPU seconds (all its processes' own; a busy loop ends at this). Default 600. */
  cpuSeconds: number;
  /** The largest file it may write, in bytes. Default 1 GiB. */
  fileBytes: number;
  /**
   * Processes of the user at once (the kernel counts the user's, not only the command's: RLIMIT_NPROC).
   * Default 4096. Not enforced when the engine runs as root: the kernel exempts root's own user, which
   * the sandbox's user is outside it (measured: `ulimit -u 5` then 8 background processes, all started).
   */
  processes: number;
  /** The address space of each of its processes, in bytes (RLIMIT_AS). Default: defaultAddressSpaceBytes, 64 GiB. */
  addressSpaceBytes?: number;
  /** The size of its private /tmp (a tmpfs: memory), in bytes; the sandbox's HOME is in it. Default: defaultTemporaryBytes, 1 GiB. */
  temporaryBytes?: number;
}

/**
 * RLIMIT_AS counts what a process reserves, not what it uses, and V8 reserves a lot: measured with Node 20
 * here, a bare `node -e` reserves 0.7 GiB, each worker thread about 0.6 GiB more, and each WebAssembly
 * memory about 10 GiB (its guard regions: under 16 GiB not even `new WebAssembly.Memory({initial: 1})`
 * works beside Node itself). 64 GiB leaves a Node process room for 6 WebAssembly memories or some 90
 * workers, and still ends an allocation that runs away before it has taken the machine's swap with it.
 */
export const defaultAddressSpaceBytes = 64 * 1024 ** 3;

/** The private /tmp's default size: room for a build's temporary files, not for filling the host's memory. */
export const defaultTemporaryBytes = 1024 ** 3;

export const defaultResourceLimits: ResourceLimits = {
  cpuSeconds: 600,
  fileBytes: 1024 ** 3,
  processes: 4096,
  addressSpaceBytes: defaultAddressSpaceBytes,
  temporaryBytes: defaultTemporaryBytes,
};

/**
 * The argv that runs `command` under `limits` with bash (`sh` has no `ulimit -u` everywhere). A limit the
 * system does not allow lowering to is skipped rather than failing the command.
 */
export function limitedShell(shell: string, command: string, limits: ResourceLimits): string[] {
  const fileKibibytes = kibibytes(limits.fileBytes);
  const addressKibibytes = kibibytes(limits.addressSpaceBytes ?? defaultAddressSpaceBytes);
  // The hard CPU limit a second above the soft one: at the soft one the kernel sends SIGXCPU, which says
  // why; at the hard one it sends SIGKILL, which would not. Soft first: a hard limit below the soft one
  // (unlimited, at first) is refused with EINVAL, so the other order never set the hard one at all.
  const script = [
    `ulimit -S -t ${whole(limits.cpuSeconds)} 2>/dev/null`,
    `ulimit -H -t ${whole(limits.cpuSeconds) + 1} 2>/dev/null`,
    `ulimit -S -H -f ${fileKibibytes} 2>/dev/null`,
    `ulimit -S -H -u ${whole(limits.processes)} 2>/dev/null`,
    `ulimit -S -H -v ${addressKibibytes} 2>/dev/null`,
    `exec ${shell} -c "$1"`,
  ].join('; ');
  return [shell, '-c', script, 'agent-team-limits', command];
}

/** The sentence for a command that ended on a limit, or undefined when it did not. */
export function limitHit(
  result: { exitCode: number | null; signal: string | null; stderr?: { text: string } },
  limits: ResourceLimits,
): string | undefined {
  const signal = result.signal ?? (result.exitCode !== null && result.exitCode > 128 ? signalName(result.exitCode - 128) : undefined);
  if (signal === 'SIGXCPU') return `The command hit its CPU-time limit (${limits.cpuSeconds} s of CPU) and was ended.`;
  if (signal === 'SIGXFSZ')
    return `The command hit its file-size limit (${Math.round(limits.fileBytes / 1024 ** 2)} MiB for one file) and was ended.`;
  if (result.exitCode === 0) return undefined;
  const stderr = result.stderr?.text ?? '';
  // No signal for the process limit: a fork fails, and the shell (or the program) says so.
  if (/fork: (?:retry: )?Resource temporarily unavailable|EAGAIN.*(?:spawn|fork)/i.test(stderr)) {
    return `The command hit its process limit (${limits.processes} processes of the user) and could not start more.`;
  }
  // Nor for the address space, nor a full /tmp: an allocation or a write fails, and the program says so in
  // its own words. Those are also what a machine out of memory or a full disk says: hence "probably", and
  // the exit code beside it.
  const exit = result.exitCode === null ? `Ended by signal ${result.signal ?? 'unknown'}` : `Exit code ${result.exitCode}`;
  if (/Cannot allocate memory|out of memory|bad_alloc|MemoryError|could not allocate memory|ENOMEM/i.test(stderr)) {
    return `${exit}: the command probably hit its address-space limit (${Math.round((limits.addressSpaceBytes ?? defaultAddressSpaceBytes) / 1024 ** 3)} GiB of memory reserved by one process), and an allocation failed.`;
  }
  if (/No space left on device|ENOSPC/.test(stderr)) {
    return `${exit}: the command probably ran out of space in its private /tmp, which holds ${Math.round((limits.temporaryBytes ?? defaultTemporaryBytes) / 1024 ** 2)} MiB (or the disk of its scratch copy is full).`;
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

function kibibytes(bytes: number): number {
  return Math.max(1, Math.floor(bytes / 1024));
}
