/**
 * Confidence intervals for figures that are differences or ratios of two noisy times (B9's and B13's
 * "added", B19's "verdict / by hand", B18's meter). On a busy machine one pair can read far below zero (the
 * bare command was preempted, the sandboxed one was not), and a median of a few such pairs says little: the
 * interval says how far the true figure may be from it, and a target is judged on the interval's upper end,
 * so a pass cannot come from luck.
 *
 * Two kinds: the median of paired differences gets the distribution-free interval from order statistics
 * (exact binomial coverage, no assumption about the shape of the noise, no randomness); any other statistic
 * (a ratio of medians) gets a percentile bootstrap over the pairs, with a seeded generator so that a run's
 * figures are reproducible from its samples.
 */
import { median } from './stats.js';

export interface ConfidenceInterval {
  /** The statistic on the samples themselves (the median, the ratio of medians). */
  estimate: number;
  low: number;
  high: number;
  /** The coverage asked for (0.95 unless told). */
  level: number;
  /** How many samples (pairs) it stands on. */
  count: number;
}

/** `first[i] - second[i]` for each pair; both lists must be as long. */
export function pairedDifferences(first: readonly number[], second: readonly number[]): number[] {
  if (first.length !== second.length) throw new Error(`pairs need lists of one length (${first.length} and ${second.length})`);
  return first.map((value, index) => value - second[index]);
}

/**
 * The interval for the median of `values` from their order statistics: [x(k), x(n+1-k)] with the largest k
 * whose two tails together hold at most 1 - level of Binomial(n, 1/2). Coverage is at least `level` for any
 * continuous distribution. Fewer than 6 values cannot reach 95 %: the interval is then the whole range, and
 * `level` says the coverage it really has.
 */
export function medianInterval(values: readonly number[], level = 0.95): ConfidenceInterval {
  checkLevel(level);
  const sorted = [...values].filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  const count = sorted.length;
  if (count === 0) return { estimate: Number.NaN, low: Number.NaN, high: Number.NaN, level, count };
  const tail = binomialTail(count);
  // k is 1-based: the k-th smallest and the k-th largest. k = 1 is the whole range.
  let k = 1;
  while (k + 1 <= Math.ceil(count / 2) && 2 * tail[k] <= 1 - level) k += 1;
  const coverage = 1 - 2 * tail[k - 1];
  return { estimate: median(sorted), low: sorted[k - 1], high: sorted[count - k], level: Math.min(level, coverage), count };
}

/**
 * A percentile bootstrap of `statistic` over `pairs` (each resample draws as many pairs, with replacement,
 * keeping each pair whole). Default 2,000 resamples, seed 1.
 */
export function bootstrapInterval<Pair>(
  pairs: readonly Pair[],
  statistic: (sample: readonly Pair[]) => number,
  options: { level?: number; resamples?: number; seed?: number } = {},
): ConfidenceInterval {
  const level = options.level ?? 0.95;
  checkLevel(level);
  const count = pairs.length;
  if (count === 0) return { estimate: Number.NaN, low: Number.NaN, high: Number.NaN, level, count };
  const random = seededRandom(options.seed ?? 1);
  const resamples = options.resamples ?? 2000;
  const estimates: number[] = [];
  const sample: Pair[] = new Array<Pair>(count);
  for (let round = 0; round < resamples; round++) {
    for (let index = 0; index < count; index++) sample[index] = pairs[Math.floor(random() * count)];
    estimates.push(statistic(sample));
  }
  estimates.sort((a, b) => a - b);
  const at = (fraction: number) => estimates[Math.min(resamples - 1, Math.max(0, Math.round(fraction * (resamples - 1))))];
  return { estimate: statistic(pairs), low: at((1 - level) / 2), high: at(1 - (1 - level) / 2), level, count };
}

/** The bootstrap interval of median(first) / median(second) over paired rounds. */
export function ratioOfMediansInterval(first: readonly number[], second: readonly number[], level = 0.95): ConfidenceInterval {
  if (first.length !== second.length) throw new Error(`pairs need lists of one length (${first.length} and ${second.length})`);
  const pairs = first.map((value, index) => [value, second[index]] as const);
  return bootstrapInterval(pairs, (sample) => median(sample.map((pair) => pair[0])) / median(sample.map((pair) => pair[1])), { level });
}

/**
 * A cost cannot be below zero: an interval of one is shown from 0 at the lowest (the samples behind it are
 * kept unchanged in the benchmark's details).
 */
export function asCost(interval: ConfidenceInterval): ConfidenceInterval {
  return { ...interval, estimate: Math.max(0, interval.estimate), low: Math.max(0, interval.low), high: Math.max(0, interval.high) };
}

/** `p50 4.1 ms (95% CI 3.2–5.0)`: `label` first, then the estimate and the interval, `digits` after the point. */
export function describeInterval(interval: ConfidenceInterval, unit: string, options: { label?: string; digits?: number } = {}): string {
  const digits = options.digits ?? 1;
  const label = options.label === undefined ? '' : `${options.label} `;
  const space = unit === '×' ? '' : ' ';
  const percent = Math.round(interval.level * 1000) / 10;
  return `${label}${interval.estimate.toFixed(digits)}${space}${unit} (${percent}% CI ${interval.low.toFixed(digits)}–${interval.high.toFixed(digits)}, ${interval.count} pairs)`;
}

/** tail[j] = P(X <= j) for X ~ Binomial(n, 1/2), j = 0…n, computed in logarithms (no overflow for large n). */
function binomialTail(count: number): number[] {
  const tail: number[] = [];
  let logChoose = 0;
  let sum = 0;
  const logHalfPower = count * Math.log(0.5);
  for (let j = 0; j <= count; j++) {
    if (j > 0) logChoose += Math.log(count - j + 1) - Math.log(j);
    sum += Math.exp(logChoose + logHalfPower);
    tail.push(Math.min(1, sum));
  }
  return tail;
}

/** mulberry32: a small seeded generator, uniform in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

function checkLevel(level: number): void {
  if (!(level > 0 && level < 1)) throw new Error(`a confidence level is between 0 and 1 (got ${level})`);
}
