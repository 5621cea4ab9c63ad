/**
 * Runs one shell command as the leader of its own process group, so that a stop or a timeout ends
 * everything it started (`npm test` → node → its workers) at once, and nothing it left running in the
 * background outlives it. Output is kept as tails as it arrives; stdin is closed (after the given input,
 * if any: a hook's JSON), so a command that waits for more input ends instead of hanging.
 */
import type { Clock } from '../clock.js';
import { onAbort } from '../abort.js';
import { type ChildProcess, programEnvironment, startProcess } from '../process-launcher.js';
import { OutputTail } from './output-tail.js';
import type { CommandLaunch } from './sandbox/command-launch.js';
import { killMarkedProcesses } from './sandbox/marked-processes.js';

export interface CommandRunOptions {
  /** What to start (sandbox/command-launch.ts): the shell line, in the sandbox when there is one. */
  launch: CommandLaunch;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  clock: Clock;
  /** Bytes of stdout kept (its end). */
  stdoutBytes: number;
  /** Bytes of stderr kept (its end). */
  stderrBytes: number;
  /** Written to its stdin, which is then closed. Default: nothing (stdin is closed at once). */
  stdin?: string;
}

export interface CommandRunResult {
  /** The exit code; null when a signal ended it. */
  exitCode: number | null;
  signal: string | null;
  stdout: { text: string; droppedBytes: number };
  stderr: { text: string; droppedBytes: number };
  durationMs: number;
  /** Why it was ended early, if it was. */
  ended?: 'timeout' | 'stopped';
}

/**
 * After the shell exits, how long its output may take to close: a process it sent to the background that
 * still holds the pipe open is ended then (the command is over; waiting for the pipe would hang).
 */
const outputGraceMs = 2_000;

export function runCommandProcess(options: CommandRunOptions): Promise<CommandRunResult> {
  const started = options.clock.now();
  const stdout = new OutputTail(options.stdoutBytes);
  const stderr = new OutputTail(options.stderrBytes);
  const { file, args, environment, mark, ownPidNamespace } = options.launch;
  // What the command left running (even in a session of its own) is found by its mark: once, when it
  // exits or is cut (the search repeats itself until nothing carries the mark). In a PID namespace of its
  // own a normal exit has already ended them all (the kernel ends the namespace with its first process,
  // and that process's exit waits for theirs); only a stop or timeout, killing from outside, searches.
  let leftoversEnded: Promise<unknown> = Promise.resolve();
  let searched = false;
  let ended: CommandRunResult['ended'];
  const endLeftovers = () => {
    if (mark === undefined || searched) return;
    if (ownPidNamespace && ended === undefined) return;
    searched = true;
    leftoversEnded = killMarkedProcesses(mark);
  };
  return new Promise<CommandRunResult>((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = startProcess(file, args, {
        cwd: options.cwd,
        environment,
        stdin: options.stdin === undefined ? 'ignore' : 'pipe',
        // Its own process group on POSIX: the group id is its pid, which `killGroup` signals.
        ownProcessGroup: process.platform !== 'win32',
        windowsVerbatimArguments: process.platform === 'win32',
      });
    } catch (error) {
      reject(error);
      return;
    }
    let exit: { code: number | null; signal: string | null } | undefined;
    let settled = false;
    const cancelTimers: Array<() => void> = [];
    const end = (why: 'timeout' | 'stopped') => {
      ended ??= why;
      cut();
    };
    const cut = () => {
      killGroup(child);
      endLeftovers();
      // Whatever it left holding the pipes must not keep the result waiting.
      child.stdout?.destroy();
      child.stderr?.destroy();
      finish();
    };
    const finish = () => {
      if (settled || exit === undefined) return;
      settled = true;
      removeAbort();
      for (const cancel of cancelTimers) cancel();
      // Processes it started in the background are ended with it.
      killGroup(child);
      endLeftovers();
      const result: CommandRunResult = {
        exitCode: exit.code,
        signal: exit.signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        durationMs: options.clock.now() - started,
        ...(ended ? { ended } : {}),
      };
      void leftoversEnded.then(() => resolve(result));
    };
    if (child.stdin) {
      // A command that exits without reading all of it closes the pipe: that is its business, not an error.
      child.stdin.on('error', () => {});
      child.stdin.end(options.stdin);
    }
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', (error) => {
      if (exit !== undefined) return;
      settled = true;
      removeAbort();
      for (const cancel of cancelTimers) cancel();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      // The command is over: what it left holding the pipes goes now, not after the grace period.
      killGroup(child);
      endLeftovers();
      if (ended) return finish();
      cancelTimers.push(options.clock.setTimer(cut, outputGraceMs));
    });
    child.once('close', (code: number | null, signal: string | null) => {
      exit ??= { code, signal };
      finish();
    });
    cancelTimers.push(options.clock.setTimer(() => end('timeout'), options.timeoutMs));
    const removeAbort = onAbort(options.signal, () => end('stopped'));
  });
}

/** Signals the command's whole process group (POSIX) or process tree (Windows). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') {
      const killer = startProcess('taskkill', ['/pid', String(child.pid), '/T', '/F'], { environment: programEnvironment() });
      killer.once('error', () => undefined);
      killer.stdout.resume();
      killer.stderr.resume();
    } else process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
