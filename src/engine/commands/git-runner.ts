/**
 * Runs git for the scratch copies. Git does the heavy lifting there (checking out 20,000 files, telling
 * which of them a command changed) far faster than a walk in JavaScript could. It runs through the one
 * runner (git/git-process.ts) on the environment the host hands in: this file reads no `process.env`.
 */
import { readNeutralGitConfig } from '../git/git-config-listing.js';
import { gitEnvironment, runProgram, type SourceEnvironment } from '../git/git-process.js';
import { AgentTeamError } from '../errors.js';

export { gitLocationVariables } from '../git/git-process.js';

export interface GitOptions {
  cwd: string;
  /** Added to the scrubbed environment (a scratch copy's GIT_DIR): the host's git variables never leak in. */
  environment?: Record<string, string>;
  /** Written to git's stdin. */
  input?: string | Buffer;
  signal?: AbortSignal;
}

/** Runs git with `args`: its stdout, or a `GitError`. */
export type Git = (args: readonly string[], options: GitOptions) => Promise<Buffer>;

export interface GitRunner {
  git: Git;
  /** True when a `git` program runs here (asked once per runner). */
  available(): Promise<boolean>;
}

export class GitError extends AgentTeamError {
  override readonly name: string = 'GitError';
  readonly code = 'git';
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(
      `git ${args.join(' ')} failed${exitCode === null ? '' : ` (exit ${exitCode})`}: ${stderr.trim().split('\n').slice(-3).join(' ').slice(0, 500) || 'no message'}`,
    );
    this.name = 'GitError';
  }
}

/**
 * The runner of one host's environment. Each call has the repository's program-running settings
 * neutralised (neutral-git-config.ts): a repository's fsmonitor or smudge filter would otherwise run as the
 * user on a plain status or checkout, in the user's checkout and in a scratch copy whose `.git/config` a
 * sandboxed command may have written.
 */
export function createGitRunner(source: SourceEnvironment): GitRunner {
  const plain = async (args: readonly string[], options: GitOptions, shownArgs: readonly string[] = args): Promise<Buffer> => {
    const output = await runProgram('git', args, {
      cwd: options.cwd,
      source,
      ...(options.environment ? { extra: options.environment } : {}),
      ...(options.input !== undefined ? { input: options.input } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (output.exitCode === 0) return output.stdout;
    throw new GitError(shownArgs, output.exitCode, output.notFound ? 'git is not installed (not found on PATH)' : output.stderr);
  };
  const git: Git = async (args, options) => {
    const { input: _input, ...reading } = options;
    const neutral = await readNeutralGitConfig(
      (configArgs, extraEnvironment) =>
        plain(configArgs, { ...reading, environment: { ...reading.environment, ...extraEnvironment } }).then(
          (stdout) => ({ exitCode: 0, stdout: stdout.toString('utf8'), stderr: '' }),
          (error: unknown) =>
            error instanceof GitError ? { exitCode: error.exitCode, stdout: '', stderr: error.stderr } : Promise.reject(error),
        ),
      gitEnvironment(source, options.environment),
    );
    return plain([...neutral.arguments, ...args], { ...options, environment: { ...options.environment, ...neutral.environment } }, args);
  };
  let available: Promise<boolean> | undefined;
  return {
    git,
    // `--version` reads no repository and runs nothing: the neutral settings are not needed (nor read).
    available: () =>
      (available ??= plain(['--version'], { cwd: process.cwd() }).then(
        () => true,
        () => false,
      )),
  };
}

/** The NUL-separated fields of git's `-z` output. */
export function splitNul(output: Buffer): string[] {
  const text = output.toString('utf8');
  return text.split('\0').filter((field) => field !== '');
}
