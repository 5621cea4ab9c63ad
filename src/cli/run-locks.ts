/**
 * One process at a time per run: `--resume` or `--continue` in one terminal while the run still works in
 * another would run its agents twice and give two tasks the same id in one run file. Each CLI process
 * holds `<runId>.lock` (its pid) for the runs it writes; a lock whose process is gone (killed, crashed)
 * is stale and taken over. A lock is a promise between agent-team processes, not a defence against
 * someone who deletes it.
 *
 * The folder is in the repository, so a lock may have been planted: a FIFO would block a plain read for
 * ever (Ctrl-C included), a link to /dev/zero would be read until memory runs out. A lock is opened
 * without following a link and without blocking, must be a regular file, and only its first bytes are
 * read (a pid). Anything else was not written by agent-team: it is removed (the name only: a link's
 * target is never touched) with a warning naming it, and the run goes on.
 */
import { closeSync, constants, fstatSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError, errorMessage, isProcessAlive, safeRunId } from '../engine/index.js';

/** A pid and its newline fit many times over; a lock longer than this was not written by agent-team. */
const maxLockBytes = 64;
const noFollow = constants.O_NOFOLLOW ?? 0;
const nonBlocking = constants.O_NONBLOCK ?? 0;

export class RunLocks {
  private readonly held = new Set<string>();

  constructor(
    private readonly directory: string,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /** Takes the run's lock; throws a `ConfigurationError` naming the process that holds it. */
  claim(runId: string): void {
    if (this.held.has(runId)) return;
    // The id names a file here: one that could lead elsewhere (`../x`) names no run at all.
    if (!safeRunId.test(runId))
      throw new ConfigurationError(
        `There is no run ${JSON.stringify(runId.slice(0, 120))}: a run id is letters, digits, '-' or '_' (agent-team runs lists them).`,
      );
    const file = this.fileOf(runId);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        // O_EXCL never follows a link; O_NOFOLLOW says so again for systems that would.
        const descriptor = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow, 0o600);
        writeSync(descriptor, `${process.pid}\n`);
        closeSync(descriptor);
        this.held.add(runId);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const lock = readLock(file);
      if (lock.kind === 'pid' && lock.pid !== process.pid && isProcessAlive(lock.pid)) {
        throw new ConfigurationError(
          `Run ${runId} is being worked on by another agent-team process (pid ${lock.pid}). Wait for it to end (or stop it), then try again.`,
        );
      }
      if (lock.kind === 'foreign')
        this.warn(`${file} is ${lock.what}, not a lock agent-team wrote (planted in the repository?); it was removed and the run goes on.`);
      // Left by a process that is gone, or never a lock of ours: taken over.
      try {
        unlinkSync(file);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A folder of that name, say: it is not agent-team's to remove.
        if (code !== 'ENOENT')
          throw new ConfigurationError(
            `${file} is in the way of run ${runId}'s lock and could not be removed (${code ?? errorMessage(error)}); remove it, then try again.`,
          );
      }
    }
    throw new ConfigurationError(`Run ${runId} could not be locked (${file}); try again.`);
  }

  releaseAll(): void {
    for (const runId of this.held) {
      try {
        unlinkSync(this.fileOf(runId));
      } catch {
        // Already gone: nothing to release.
      }
    }
    this.held.clear();
  }

  private fileOf(runId: string): string {
    return path.join(this.directory, `${runId}.lock`);
  }
}

/**
 * Whether an agent-team process still works on the run: its lock names a process that is alive. A run
 * the log shows unfinished without one was killed or crashed (`agent-team runs` says `interrupted`). A
 * pid taken over by an unrelated process reads as alive: the one error this cannot rule out.
 */
export function isRunHeld(directory: string, runId: string): boolean {
  if (!safeRunId.test(runId)) return false;
  const lock = readLock(path.join(directory, `${runId}.lock`));
  return lock.kind === 'pid' && isProcessAlive(lock.pid);
}

type LockContents = { kind: 'pid'; pid: number } | { kind: 'stale' } | { kind: 'foreign'; what: string };

/** What the lock says, read without following a link, without blocking, and at most `maxLockBytes`. */
export function readLock(file: string): LockContents {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | noFollow | nonBlocking);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: the name is a link (Linux, macOS; EMLINK on some BSDs). ENXIO: a socket.
    if (code === 'ELOOP' || code === 'EMLINK') return { kind: 'foreign', what: 'a symbolic link' };
    if (code === 'ENXIO') return { kind: 'foreign', what: 'not a regular file' };
    return { kind: 'stale' };
  }
  try {
    const status = fstatSync(descriptor);
    if (!status.isFile())
      return { kind: 'foreign', what: status.isFIFO() ? 'a FIFO' : status.isSymbolicLink() ? 'a symbolic link' : 'not a regular file' };
    if (status.size > maxLockBytes) return { kind: 'foreign', what: `${status.size} bytes long` };
    const buffer = Buffer.alloc(maxLockBytes);
    const text = buffer.subarray(0, readSync(descriptor, buffer, 0, maxLockBytes, 0)).toString('utf8');
    const pid = /^(\d{1,10})\n?$/.exec(text)?.[1];
    return pid === undefined || Number(pid) <= 0 ? { kind: 'stale' } : { kind: 'pid', pid: Number(pid) };
  } finally {
    closeSync(descriptor);
  }
}
