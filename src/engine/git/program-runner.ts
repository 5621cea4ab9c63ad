/**
 * Runs git and gh for "apply to a branch": `execFile` (never a shell: a branch name or a title is an
 * argument, not a command line), with a timeout, no terminal prompt (a push that wants a password fails
 * at once instead of hanging a CLI run or an editor window), and none of the variables that would point
 * git at another repository. Injected, so a host or a test can run something else.
 */
import { runCapturedProgram } from '../process-launcher.js';

export interface ProgramResult {
  /** The exit code; null when the program could not start or was killed (a timeout). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** True when the program is not installed (not on PATH). */
  notFound: boolean;
}

export interface ProgramOptions {
  /** Where it runs: the repository (or the worktree). */
  cwd: string;
  /** Killed after this long. Default: 60 s (a push or a pull request over a slow network). */
  timeoutMs?: number;
}

/** Runs `program` with `args`; resolves whatever the exit code (never rejects). */
export type ProgramRunner = (program: 'git' | 'gh', args: readonly string[], options: ProgramOptions) => Promise<ProgramResult>;

/** The variables that would send git to another repository than the one it runs in. */
const gitLocationVariables =
  /^GIT_(?:DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|NAMESPACE|PREFIX|CEILING_DIRECTORIES)$/;

export const defaultProgramTimeoutMs = 60_000;

/** The runner of this process's PATH and environment. */
export function nodeProgramRunner(environment: NodeJS.ProcessEnv = process.env): ProgramRunner {
  const cleaned: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(environment))
    if (value !== undefined && !gitLocationVariables.test(name)) cleaned[name] = value;
  // No prompt for a password (git, and gh's git), no pager, no editor for a commit message.
  const env = { ...cleaned, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GH_PROMPT_DISABLED: '1', GIT_EDITOR: 'true' };
  return (program, args, options) =>
    new Promise<ProgramResult>((resolve) => {
      runCapturedProgram(
        program,
        args,
        { cwd: options.cwd, environment: env, timeoutMs: options.timeoutMs ?? defaultProgramTimeoutMs, maxBufferBytes: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if (!error) return resolve({ exitCode: 0, stdout, stderr, notFound: false });
          const code = (error as NodeJS.ErrnoException).code;
          const notFound = code === 'ENOENT';
          const timedOut = error.killed === true;
          const message = notFound
            ? `${program} is not installed (not found on PATH)`
            : timedOut
              ? `${program} ${args[0] ?? ''} did not finish in ${Math.round((options.timeoutMs ?? defaultProgramTimeoutMs) / 1000)} s and was stopped`
              : '';
          resolve({
            exitCode: typeof code === 'number' ? code : null,
            stdout: stdout ?? '',
            stderr: [stderr ?? '', message].filter(Boolean).join('\n'),
            notFound,
          });
        },
      );
    });
}

/** The last lines of a failed program's stderr, for a message. */
export function failureText(result: ProgramResult): string {
  return result.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 500) || `exit ${result.exitCode ?? 'unknown'}`;
}
