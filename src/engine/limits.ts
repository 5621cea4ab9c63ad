/**
 * The limits a user sets (the CLI's flags, the extension's settings): each one's default and range,
 * defined once. The CLI's parser, the extension's configuration reader and package.json's settings are
 * checked against this table by test/architecture/limits.test.ts, so none can drift.
 */
import * as z from 'zod';

interface LimitRange {
  default: number;
  minimum: number;
  /** Infinity: no maximum. */
  maximum: number;
  /** True when only whole numbers are valid. */
  whole: boolean;
}

export const limitRanges = {
  /** Tasks doing work at once (`--max-concurrent`, `agentTeam.maxConcurrentTasks`). */
  maxConcurrentTasks: { default: 4, minimum: 1, maximum: 32, whole: true },
  /** How deep delegation nests; 0: no delegation (`--max-depth`, `agentTeam.maxDepth`). */
  maxDepth: { default: 3, minimum: 0, maximum: 10, whole: true },
  /** Sub-tasks per plan at most (`--max-subtasks`, `agentTeam.maxSubtasks`). */
  maxSubtasks: { default: 5, minimum: 1, maximum: 20, whole: true },
  /** A foreground subagent moves to the background after this (`--auto-background-seconds`). */
  autoBackgroundSeconds: { default: 120, minimum: 0, maximum: Infinity, whole: false },
  /** More subagents than this in one turn ask first (`agentTeam.confirmFanOutAbove`; the CLI: `--yes`). */
  confirmFanOutAbove: { default: 8, minimum: 1, maximum: Infinity, whole: true },
  /** Tokens one run may spend; 0: no budget (`--budget-tokens`, `agentTeam.budgetTokens`). */
  budgetTokens: { default: 0, minimum: 0, maximum: Infinity, whole: true },
} as const satisfies Record<string, LimitRange>;

export type LimitName = keyof typeof limitRanges;

function limitSchema(range: LimitRange) {
  const number = range.whole ? z.number().int() : z.number();
  const bounded = Number.isFinite(range.maximum) ? number.min(range.minimum).max(range.maximum) : number.min(range.minimum);
  return bounded.default(range.default);
}

/** Every limit, validated, with its default where it is missing. */
export const engineLimitsSchema = z.object(
  Object.fromEntries(Object.entries(limitRanges).map(([name, range]) => [name, limitSchema(range)])) as {
    [Name in LimitName]: ReturnType<typeof limitSchema>;
  },
);

export type EngineLimits = { [Name in LimitName]: number };

export const defaultLimits: EngineLimits = engineLimitsSchema.parse({});

/**
 * A limit as a setting holds it: not a number (or not whole where it must be), or below the minimum, gives
 * the default; above the maximum gives the maximum (VS Code shows the range but stores any number).
 */
export function readLimit(name: LimitName, value: unknown): number {
  const range: LimitRange = limitRanges[name];
  if (typeof value !== 'number' || !Number.isFinite(value) || (range.whole && !Number.isInteger(value)) || value < range.minimum)
    return range.default;
  return Math.min(value, range.maximum);
}

/** Why `value` is not a valid `name`, or undefined when it is. */
export function limitProblem(name: LimitName, value: number): string | undefined {
  const range: LimitRange = limitRanges[name];
  if (!Number.isFinite(value) || (range.whole && !Number.isInteger(value))) return `must be a ${range.whole ? 'whole ' : ''}number`;
  if (value < range.minimum || value > range.maximum)
    return Number.isFinite(range.maximum) ? `must be from ${range.minimum} to ${range.maximum}` : `must be ${range.minimum} or more`;
  return undefined;
}

/**
 * How many agent-team servers one A2A request may pass through (`agentTeam/hops` in its message's
 * metadata, a2a/hop-count.ts): a request arriving after this many is refused. A role whose `a2a_url` leads
 * back to a server in its own chain would otherwise hold a run, and a concurrency slot, on every lap until
 * the servers deadlock. Three is a chain of three teams (a team, a team it hands work to, and one more).
 */
export const maxA2aHops = 3;

/**
 * Ancestor context (tasks/ancestor-tasks.ts): a nested planner, a plan's leaf, or a subagent started by a
 * subagent sees the tasks its own is part of. Each is cut to `maxAncestorTaskCharacters` (its head says
 * what it is; a sequence step's previous result, which follows, need not travel down), and the whole chain
 * to `maxAncestorContextCharacters` (the outermost and the nearest kept, the middle left out): ten levels
 * of long tasks must not crowd out the task itself. Fixed, not settings: they shape every prompt alike.
 */
export const maxAncestorTaskCharacters = 1_000;
export const maxAncestorContextCharacters = 4_000;
