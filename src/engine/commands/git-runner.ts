/**
 * Runs git for the scratch copies. Git does the heavy lifting there (checking out 20,000 files, telling
 * which of them a command changed) far faster than a walk in JavaScript could.
 */
import { startProcess } from '../process-launcher.js';
import { readNeutralGitConfig } from '../git/git-config-listing.js';
import { AgentTeamError } from '../errors.js';

export interface GitOptions {
  cwd: string;
  /** Added to a clean environment: the host's git variables never leak in. */
  environment?: Record<string, string>;
  /** Written to git's stdin. */
  input?: string | Buffer;
  signal?: AbortSignal;
}

export class GitError extends AgentTeamError {
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

/** The variables git reads that would point it somewhere else than we mean (ours, and commands'). */
export const gitLocationVariables =
  /^GIT_(?:DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|NAMESPACE|PREFIX|CEILING_DIRECTORIES)$/;

function gitEnvironment(extra: Record<string, string> | undefined): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && !gitLocationVariables.test(name)) environment[name] = value;
  // Never take the user's index lock for an optional refresh, never prompt, never page.
  return { ...environment, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C', ...extra };
}

/**
 * Runs git with the repository's program-running settings neutralised (neutral-git-config.ts): a
 * repository's fsmonitor or smudge filter would otherwise run as the user on a plain status or checkout,
 * in the user's checkout and in a scratch copy whose `.git/config` a sandboxed command may have written.
 */
export async function git(args: readonly string[], options: GitOptions): Promise<Buffer> {
  const { input: _input, ...reading } = options;
  const neutral = await readNeutralGitConfig(
    (configArgs, extraEnvironment) =>
      runGit(configArgs, { ...reading, environment: { ...reading.environment, ...extraEnvironment } }).then(
        (stdout) => ({ exitCode: 0, stdout: stdout.toString('utf8'), stderr: '' }),
        (error: unknown) =>
          error instanceof GitError ? { exitCode: error.exitCode, stdout: '', stderr: error.stderr } : Promise.reject(error),
      ),
    gitEnvironment(options.environment),
  );
  return runGit([...neutral.arguments, ...args], { ...options, environment: { ...options.environment, ...neutral.environment } }, args);
}

function runGit(args: readonly string[], options: GitOptions, shownArgs: readonly string[] = args): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const child = startProcess('git', args, {
      cwd: options.cwd,
      environment: gitEnvironment(options.environment),
      stdin: 'pipe',
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(Buffer.concat(stdout));
      else reject(new GitError(shownArgs, code, Buffer.concat(stderr).toString('utf8')));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

let available: Promise<boolean> | undefined;

/** True when a `git` program runs here (asked once). */
export function gitAvailable(): Promise<boolean> {
  // `--version` reads no repository and runs nothing: the neutral settings are not needed (nor read).
  available ??= runGit(['--version'], { cwd: process.cwd() }).then(
    () => true,
    () => false,
  );
  return available;
}

/** The NUL-separated fields of git's `-z` output. */
export function splitNul(output: Buffer): string[] {
  const text = output.toString('utf8');
  return text.split('\0').filter((field) => field !== '');
}
