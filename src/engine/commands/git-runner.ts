/**
 * Runs git for the scratch copies. Git does the heavy lifting there (checking out 20,000 files, telling
 * which of them a command changed) far faster than a walk in JavaScript could. It runs through the one
 * runner (git/git-process.ts) on the environment the host hands in: this file reads no `process.env`.
 */
import { readNeutralGitConfig } from '../git/git-config-listing.js';
import type { NeutralGitConfig } from '../git/neutral-git-config.js';
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
  /**
   * A git for one copy's creation: the repository's configuration is read (and neutralised) once per
   * folder and variables, not before every call. Kept only while one copy is made (a few hundred
   * milliseconds), so a change to the repository's configuration made later is read by the next copy.
   */
  oneCreation(): Git;
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
  const readNeutral = (options: GitOptions): Promise<NeutralGitConfig> => {
    const { input: _input, ...reading } = options;
    return readNeutralGitConfig(
      (configArgs, extraEnvironment) =>
        plain(configArgs, { ...reading, environment: { ...reading.environment, ...extraEnvironment } }).then(
          (stdout) => ({ exitCode: 0, stdout: stdout.toString('utf8'), stderr: '' }),
          (error: unknown) =>
            error instanceof GitError ? { exitCode: error.exitCode, stdout: '', stderr: error.stderr } : Promise.reject(error),
        ),
      gitEnvironment(source, options.environment),
    );
  };
  const neutralised =
    (neutralFor: (options: GitOptions) => Promise<NeutralGitConfig>): Git =>
    async (args, options) => {
      const neutral = await neutralFor(options);
      return plain([...neutral.arguments, ...args], { ...options, environment: { ...options.environment, ...neutral.environment } }, args);
    };
  const git = neutralised(readNeutral);
  let available: Promise<boolean> | undefined;
  return {
    git,
    // `--version` reads no repository and runs nothing: the neutral settings are not needed (nor read).
    available: () =>
      (available ??= plain(['--version'], { cwd: process.cwd() }).then(
        () => true,
        () => false,
      )),
    oneCreation: () => neutralised(readOncePerPlace(readNeutral)),
  };
}

/**
 * `read`, asked once per place (folder and added variables: what decides which repository git finds and
 * which configuration files it reads) for as long as the returned function is kept, calls at the same
 * time sharing one read (and its failure).
 */
export function readOncePerPlace<Value>(read: (options: GitOptions) => Promise<Value>): (options: GitOptions) => Promise<Value> {
  const byPlace = new Map<string, Promise<Value>>();
  return (options) => {
    const place = JSON.stringify([options.cwd, Object.entries(options.environment ?? {}).sort()]);
    let value = byPlace.get(place);
    if (!value) byPlace.set(place, (value = read(options)));
    return value;
  };
}

/** The NUL-separated fields of git's `-z` output. */
export function splitNul(output: Buffer): string[] {
  const text = output.toString('utf8');
  return text.split('\0').filter((field) => field !== '');
}
