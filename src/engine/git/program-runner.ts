/**
 * Runs git and gh for "apply to a branch", through the one runner (git-process.ts): never a shell (a
 * branch name or a title is an argument, not a command line), with a timeout, no terminal prompt (a push
 * that wants a password fails at once instead of hanging a CLI run or an editor window), and none of the
 * variables that would point git at another repository. Injected, so a host or a test can run something else.
 */
import { type Clock, systemClock } from '../clock.js';
import { defaultProgramTimeoutMs } from '../limits.js';
import { runProgram, type SourceEnvironment } from './git-process.js';

export { defaultProgramTimeoutMs };

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
  /** Killed after this long. Default: `defaultProgramTimeoutMs` (limits.ts). */
  timeoutMs?: number;
}

/** Runs `program` with `args`; resolves whatever the exit code (never rejects). */
export type ProgramRunner = (program: 'git' | 'gh', args: readonly string[], options: ProgramOptions) => Promise<ProgramResult>;

/** The runner of `environment` (the host's, injected: nothing is read from this process). */
export function nodeProgramRunner(environment: SourceEnvironment, clock: Clock = systemClock): ProgramRunner {
  return async (program, args, options) => {
    const timeoutMs = options.timeoutMs ?? defaultProgramTimeoutMs;
    const output = await runProgram(program, args, { cwd: options.cwd, source: environment, timeoutMs, clock });
    const message = output.notFound
      ? `${program} is not installed (not found on PATH)`
      : output.timedOut
        ? `${program} ${args[0] ?? ''} did not finish in ${Math.round(timeoutMs / 1000)} s and was stopped`
        : '';
    return {
      exitCode: output.exitCode,
      stdout: output.stdout.toString('utf8'),
      stderr: [output.stderr, message].filter(Boolean).join('\n'),
      notFound: output.notFound,
    };
  };
}

/** The last lines of a failed program's stderr, for a message. */
export function failureText(result: ProgramResult): string {
  return result.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 500) || `exit ${result.exitCode ?? 'unknown'}`;
}
