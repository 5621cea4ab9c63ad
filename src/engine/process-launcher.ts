/**
 * The one place in src that starts a process (test/architecture/process-launch.test.ts holds every other
 * file to it), so what holds for every process holds by construction:
 * - the environment is the caller's, whole: nothing of this process's own is added (Node's default is to
 *   inherit all of it, keys included). A caller that wants this process's variables passes them knowingly;
 *   `programEnvironment` is the small base most programs need;
 * - stdin is closed unless the caller asks for a pipe (then it writes and ends it): a program that reads
 *   its input ends instead of waiting on the user's terminal, and never reads what was typed there;
 * - no console window on Windows; never a shell (arguments are arguments, not a command line);
 * - a process group of its own only when the caller will end the group (`ownProcessGroup`);
 * - a program started by name (git, gh) is looked for only where the repository cannot have put it
 *   (program-search-path.ts), and what it starts by name too.
 * What is started inside the OS sandbox, and how, is decided in commands/sandbox/command-launch.ts.
 */
import { type ChildProcessByStdio, type ChildProcessWithoutNullStreams, type ExecFileException, execFile, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { isProgramName, withTrustedSearchPath } from './program-search-path.js';

/** A started process, as the callers hold it. */
export type { ChildProcess } from 'node:child_process';

export interface ProcessOptions {
  /** Where it runs. Default: this process's working directory. */
  cwd?: string;
  /** Its whole environment (required: nothing is inherited). */
  environment: Readonly<Record<string, string | undefined>>;
  /** `pipe`: the caller writes its stdin and ends it. Default `ignore`: closed. */
  stdin?: 'pipe' | 'ignore';
  /** True: it leads a process group of its own (POSIX), which the caller signals as a whole. Default false. */
  ownProcessGroup?: boolean;
  /** Windows: the arguments as given, unquoted (cmd.exe's `/c "<line>"`). Default false. */
  windowsVerbatimArguments?: boolean;
  /** Aborting kills it (SIGTERM). Default: none. */
  signal?: AbortSignal;
}

/** Starts `file` with `args`; stdout and stderr are pipes the caller reads (or `resume()`s). */
export function startProcess(
  file: string,
  args: readonly string[],
  options: ProcessOptions & { stdin: 'pipe' },
): ChildProcessWithoutNullStreams;
export function startProcess(file: string, args: readonly string[], options: ProcessOptions): ChildProcessByStdio<null, Readable, Readable>;
export function startProcess(
  file: string,
  args: readonly string[],
  options: ProcessOptions,
): ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable> {
  return spawn(file, [...args], {
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    env: definedOnly(searchedEnvironment(file, options.environment, options.cwd)),
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
    detached: options.ownProcessGroup === true,
    windowsHide: true,
    shell: false,
    ...(options.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  }) as ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable>;
}

export interface CapturedProgramOptions {
  cwd: string;
  /** Its whole environment (required: nothing is inherited). */
  environment: Readonly<Record<string, string | undefined>>;
  /** Killed after this long. */
  timeoutMs: number;
  /** Bytes of stdout or stderr kept before it is killed. */
  maxBufferBytes: number;
}

/** Node's `execFile` callback, text in and out. */
export type CapturedProgramCallback = (error: ExecFileException | null, stdout: string, stderr: string) => void;

/** Runs `file` to its end and hands over its output as text (`execFile`, stdin closed at once). */
export function runCapturedProgram(
  file: string,
  args: readonly string[],
  options: CapturedProgramOptions,
  callback: CapturedProgramCallback,
): void {
  const child = execFile(
    file,
    [...args],
    {
      cwd: options.cwd,
      env: definedOnly(searchedEnvironment(file, options.environment, options.cwd)),
      timeout: options.timeoutMs,
      maxBuffer: options.maxBufferBytes,
      windowsHide: true,
      shell: false,
      encoding: 'utf8',
    },
    callback,
  );
  child.stdin?.on('error', () => undefined);
  child.stdin?.end();
}

/**
 * The variables of `source` nearly every program needs and none holds a secret: PATH, the locale, the
 * time zone, Windows' system folders (any case: Windows' names are case-insensitive, `Path` is PATH).
 */
export function programEnvironment(source: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && /^(?:PATH|LANG|LANGUAGE|LC_[A-Z_]+|TZ|SYSTEMROOT|WINDIR|COMSPEC|PATHEXT)$/i.test(name)) kept[name] = value;
  }
  return kept;
}

function searchedEnvironment(
  file: string,
  environment: Readonly<Record<string, string | undefined>>,
  cwd: string | undefined,
): Readonly<Record<string, string | undefined>> {
  return isProgramName(file) ? withTrustedSearchPath(environment, cwd) : environment;
}

function definedOnly(environment: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const defined: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) if (value !== undefined) defined[name] = value;
  return defined;
}
