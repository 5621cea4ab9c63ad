/**
 * The runner of "apply to a branch": git and gh with the repository's program-running settings
 * neutralised (neutral-git-config.ts). git gets them as `-c` arguments; gh, which runs git itself
 * (`gh pr create` asks `git status`, which would start a repository's fsmonitor), gets them as
 * `GIT_CONFIG_*` variables that every git it starts reads.
 */
import { readNeutralGitConfig } from './git-config-listing.js';
import type { SourceEnvironment } from './git-process.js';
import type { NeutralGitConfig } from './neutral-git-config.js';
import { nodeProgramRunner, type ProgramRunner } from './program-runner.js';

export interface NeutralRunner {
  runner: ProgramRunner;
  config: NeutralGitConfig;
}

export interface NeutralRunnerOptions {
  /** The environment git and gh run with: the host's (required: nothing is read from this process). */
  environment: SourceEnvironment;
  /** Makes a runner for an environment. Default: `nodeProgramRunner`. */
  runnerFor?: (environment: SourceEnvironment) => ProgramRunner;
}

/**
 * Reads the configuration git sees in `cwd` (the workspace, or any folder of the repository) and returns
 * a runner that neutralises it. Throws when the configuration cannot be read or neutralised.
 */
export async function neutralProgramRunner(cwd: string, options: NeutralRunnerOptions): Promise<NeutralRunner> {
  const environment = options.environment;
  const runnerFor = options.runnerFor ?? ((source: SourceEnvironment) => nodeProgramRunner(source));
  const config = await readNeutralGitConfig(
    (args, extraEnvironment) => runnerFor({ ...environment, ...extraEnvironment })('git', args, { cwd }),
    environment,
  );
  const inner = runnerFor({ ...environment, ...config.environment });
  const runner: ProgramRunner = (program, args, runOptions) =>
    inner(program, program === 'git' ? [...config.arguments, ...args] : args, runOptions);
  return { runner, config };
}
