/**
 * The one way the engine runs git (and gh, which runs git itself): through process-launcher.ts, on the
 * environment its caller hands in (the host's, injected), never this process's own. Both the scratch
 * copies (commands/git-runner.ts) and "apply to a branch" (program-runner.ts) run through here, so the
 * variables taken away and the ones added are the same for every git the engine starts.
 */
import type { Clock } from '../clock.js';
import { withDeadline } from '../deadline.js';
import { startProcess } from '../process-launcher.js';

/** An environment as a host holds one (`process.env`'s shape, but injected). */
export type SourceEnvironment = Readonly<Record<string, string | undefined>>;

/** The variables git reads that would point it somewhere else than we mean (ours, and commands'). */
export const gitLocationVariables =
  /^GIT_(?:DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|NAMESPACE|PREFIX|CEILING_DIRECTORIES)$/;

/**
 * `source` without the location variables, plus what keeps git quiet and unattended: never the user's
 * index lock for an optional refresh, never a prompt for a password (git's or gh's: a push that wants one
 * fails at once instead of hanging a run), never a pager or an editor, messages in one language.
 * `extra` (a scratch copy's own GIT_DIR) comes last.
 */
export function gitEnvironment(source: SourceEnvironment, extra: Record<string, string> = {}): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(source))
    if (value !== undefined && !gitLocationVariables.test(name)) environment[name] = value;
  return {
    ...environment,
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    GIT_EDITOR: 'true',
    GH_PROMPT_DISABLED: '1',
    LC_ALL: 'C',
    ...extra,
  };
}

export interface ProgramRun {
  cwd: string;
  /** The caller's environment (required: nothing is read from this process). */
  source: SourceEnvironment;
  /** Added after the scrubbing (gitEnvironment). Default: none. */
  extra?: Record<string, string>;
  /** Written to stdin. Default: nothing (stdin ends at once). */
  input?: string | Buffer;
  /** Aborting kills the program. Default: none. */
  signal?: AbortSignal;
  /** Killed after this long (withDeadline on `clock`). Default: no timeout. */
  timeoutMs?: number;
  /** Required with `timeoutMs`. */
  clock?: Clock;
}

export interface ProgramOutput {
  /** null when it could not start or was killed. */
  exitCode: number | null;
  stdout: Buffer;
  stderr: string;
  /** The program is not installed (not found on PATH). */
  notFound: boolean;
  /** It passed `timeoutMs` and was killed. */
  timedOut: boolean;
}

/** Runs `program` to its end; resolves whatever the exit code (never rejects, except for an abort). */
export function runProgram(program: 'git' | 'gh', args: readonly string[], run: ProgramRun): Promise<ProgramOutput> {
  const child = startProcess(program, args, {
    cwd: run.cwd,
    environment: gitEnvironment(run.source, run.extra),
    stdin: 'pipe',
    ...(run.signal ? { signal: run.signal } : {}),
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const ended = new Promise<ProgramOutput>((resolve, reject) => {
    const output = (exitCode: number | null, notFound: boolean): ProgramOutput => ({
      exitCode,
      stdout: Buffer.concat(stdout),
      stderr: Buffer.concat(stderr).toString('utf8'),
      notFound,
      timedOut: false,
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? resolve(output(null, true)) : run.signal?.aborted ? reject(error) : resolve(output(null, false)),
    );
    child.once('close', (code) => resolve(output(code, false)));
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(run.input ?? '');
  if (run.timeoutMs === undefined || !run.clock) return ended;
  return withDeadline(ended, {
    clock: run.clock,
    timeoutMs: run.timeoutMs,
    expire: () => {
      child.kill('SIGKILL');
      return {
        exitCode: null,
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr).toString('utf8'),
        notFound: false,
        timedOut: true,
      };
    },
  });
}
