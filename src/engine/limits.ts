/**
 * Every default of the engine, defined once: the limits a user sets (the CLI's flags, the extension's
 * settings) with their ranges, and the fixed defaults of options a host may pass. Every place that needs a
 * default imports it from here. test/architecture/limits.test.ts holds the CLI's parser, the extension's
 * configuration reader and package.json to the ranges; test/architecture/defaults-doc.test.ts holds
 * docs/defaults.md to this whole file, both ways. Reading and checking a limit: limit-reading.ts.
 */

export interface LimitRange {
  default: number;
  minimum: number;
  /** Infinity: no maximum. */
  maximum: number;
  /** True when only whole numbers are valid. */
  whole: boolean;
  /** What the number counts, as docs/defaults.md names it. */
  unit: string;
}

export const limitRanges = {
  /** Tasks doing work at once (`--max-concurrent`, `agentTeam.maxConcurrentTasks`): two CPUs' worth of agents. */
  maxConcurrentTasks: { default: 4, minimum: 1, maximum: 32, whole: true, unit: 'tasks' },
  /** How deep delegation nests; 0: no delegation (`--max-depth`, `agentTeam.maxDepth`). */
  maxDepth: { default: 3, minimum: 0, maximum: 10, whole: true, unit: 'levels' },
  /** Sub-tasks per plan at most (`--max-subtasks`, `agentTeam.maxSubtasks`). */
  maxSubtasks: { default: 5, minimum: 1, maximum: 20, whole: true, unit: 'tasks' },
  /** A foreground subagent moves to the background after this (`--auto-background-seconds`): the caller may go on. */
  autoBackgroundSeconds: { default: 120, minimum: 0, maximum: Infinity, whole: false, unit: 's' },
  /** More subagents than this in one turn ask first (`agentTeam.confirmFanOutAbove`; the CLI: `--yes`). */
  confirmFanOutAbove: { default: 8, minimum: 1, maximum: Infinity, whole: true, unit: 'subagents' },
  /** Tokens one run may spend; 0: no budget (`--budget-tokens`, `agentTeam.budgetTokens`). */
  budgetTokens: { default: 0, minimum: 0, maximum: Infinity, whole: true, unit: 'tokens' },
  /** Runs older than this leave the run log (`agentTeam.historyRetentionDays`; the CLI keeps the same). */
  historyRetentionDays: { default: 30, minimum: 1, maximum: 3650, whole: true, unit: 'days' },
} as const satisfies Record<string, LimitRange>;

export type LimitName = keyof typeof limitRanges;

export type EngineLimits = { [Name in LimitName]: number };

export const defaultLimits: EngineLimits = Object.fromEntries(
  Object.entries(limitRanges).map(([name, range]) => [name, range.default]),
) as EngineLimits;

interface FixedDefault {
  value: number | string;
  unit: string;
}

/** The defaults no setting changes (a host or a test may pass another value through the option named). */
export const fixedDefaults = {
  /** `TaskManagerOptions.autoBackgroundMs`: the auto-background limit above, in the unit timers take. */
  autoBackgroundMs: { value: limitRanges.autoBackgroundSeconds.default * 1000, unit: 'ms' },
  /** `--delegation-reach`, `agentTeam.delegationReach`: an agent hands work only to roles with no tool it lacks. */
  delegationReach: { value: 'own-tools', unit: 'choice' },
  /** How long a model response may take to start (its headers): slow queues at busy providers. */
  modelRequestTimeoutMs: { value: 600_000, unit: 'ms' },
  /**
   * How long a started model response may send no event: reasoning models think for minutes before their
   * first token, and keep-alive comments some proxies send are not events. 0 turns it off.
   */
  modelIdleTimeoutMs: { value: 300_000, unit: 'ms' },
  /** Retries of a failed model request (429, 5xx, a dropped connection): two ride out a blip. */
  modelMaxRetries: { value: 2, unit: 'retries' },
  /** How long reaching a remote A2A agent (its card, then its first answer) may take. */
  remoteConnectTimeoutMs: { value: 30_000, unit: 'ms' },
  /** How long a remote A2A agent may be silent once it has answered: agents think long. */
  remoteIdleTimeoutMs: { value: 600_000, unit: 'ms' },
  /** git and gh for "apply to a branch": a push or a pull request over a slow network. */
  programTimeoutMs: { value: 60_000, unit: 'ms' },
  /** How long a stopped task's work gets to hand over its partial output before the task ends without it. */
  stopGraceMs: { value: 2_000, unit: 'ms' },
  /** Tasks one run may start in all: a runaway agent that keeps delegating gets an error, not the machine. */
  maxTasksPerRun: { value: 200, unit: 'tasks' },
  /** Transcript entries kept per task (the oldest dropped first, with a notice): memory per task stays bounded. */
  maxTranscriptEntries: { value: 500, unit: 'entries' },
  /** Output characters a background task's notice to its parent carries: the parent's context is not flooded. */
  noticeOutputChars: { value: 1_000, unit: 'characters' },
  /** All runs' files together: the oldest runs go while the run log is larger (1 GiB). */
  historyMaxBytes: { value: 1_073_741_824, unit: 'bytes' },
  /**
   * Agent-team servers one A2A request may pass through (`agentTeam/hops`, a2a/hop-count.ts): a role whose
   * `a2a_url` leads back into its own chain would otherwise hold a slot on every lap until the servers
   * deadlock. Three: a team, a team it hands work to, and one more.
   */
  maxA2aHops: { value: 3, unit: 'servers' },
  /**
   * Ancestor context (tasks/ancestor-tasks.ts): each task above a subagent is cut to this, and the whole
   * chain to the next (the outermost and the nearest kept): ten levels of long tasks must not crowd out
   * the task itself. Fixed, not settings: they shape every prompt alike.
   */
  maxAncestorTaskCharacters: { value: 1_000, unit: 'characters' },
  maxAncestorContextCharacters: { value: 4_000, unit: 'characters' },
} as const satisfies Record<string, FixedDefault>;

type Values<Table extends Record<string, FixedDefault>> = { [Name in keyof Table]: Table[Name]['value'] };

/** The fixed defaults' values, as code uses them: `defaults.stopGraceMs`. */
export const defaults = Object.fromEntries(Object.entries(fixedDefaults).map(([name, entry]) => [name, entry.value])) as Values<
  typeof fixedDefaults
>;

export const maxA2aHops = defaults.maxA2aHops;
export const maxAncestorTaskCharacters = defaults.maxAncestorTaskCharacters;
export const maxAncestorContextCharacters = defaults.maxAncestorContextCharacters;
export const defaultProgramTimeoutMs = defaults.programTimeoutMs;
