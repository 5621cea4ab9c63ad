/** What a benchmark is and what it reports: the harness (bench/run.ts) knows nothing else about it. */
import type { RunCost } from './run-cost.js';

/** One figure a benchmark measured. */
export interface Measurement {
  /** What it is, e.g. `time per delegation`. */
  name: string;
  /** The figure, in `unit`; null when it could not be measured here (see `note`). */
  value: number | null;
  unit: string;
  /** The upper bound the issue sets (the figure passes when `value <= target`). Default: none, informational. */
  target?: number;
  /** How the figure is shown. Default: `value` rounded to three significant digits, then `unit`. */
  display?: string;
  /** A short remark shown after the figure (e.g. which figure the target applies to). Default: none. */
  note?: string;
  /**
   * The same-run baseline the figure is judged beside (a floor measured in the same run, under the same
   * load), shown in the table's `baseline` column. Default: none (the column stays empty).
   */
  baseline?: string;
}

/** What a benchmark hands back. */
export interface BenchmarkOutcome {
  measurements: Measurement[];
  /** Set when the benchmark could not run here (a missing browser, say): the reason, for the table. */
  skipped?: string;
  /** Anything worth keeping in the JSON beside the figures (sizes, breakdowns). Default: none. */
  details?: Record<string, unknown>;
}

export interface BenchmarkContext {
  /** Small sizes: CI checks that the benchmark still works, not that it meets its target. */
  quick: boolean;
  /** A progress line on stderr (the table goes to stdout). */
  log(line: string): void;
  /**
   * Where benchmarks that draw charts write their SVG files (`--charts`: docs/performance, or the
   * AGENT_TEAM_BENCH_CHARTS environment variable). Default: none, no chart is written, so the runs CI
   * makes never rewrite the docs.
   */
  chartsDirectory?: string;
  /** Busy processes the run started beside the benchmarks (`--load N`); 0: none. */
  selfMadeLoad?: number;
}

export interface Benchmark {
  /** `B1` … `B16`, `C1`. */
  id: string;
  title: string;
  /**
   * True: a full run (no `--quick`) runs it only when its id is named, as it takes minutes; quick runs
   * include it. Default false.
   */
  fullRunOnlyWhenNamed?: boolean;
  run(context: BenchmarkContext): Promise<BenchmarkOutcome>;
}

/** pass: every target met; miss: a target missed; skipped: could not run here; error: the benchmark broke. */
export type BenchmarkStatus = 'pass' | 'miss' | 'skipped' | 'error';

export interface BenchmarkResult {
  id: string;
  title: string;
  status: BenchmarkStatus;
  measurements: Measurement[];
  /** The skip reason or the error message. */
  reason?: string;
  details?: Record<string, unknown>;
  /** How long the benchmark took to run, in ms. */
  durationMs: number;
  /**
   * The CPU time it took (own process and ended children) and the machine's load meanwhile; its figures
   * are flagged in the table when `busyMachine`. Measured by the harness over the whole benchmark.
   */
  cost?: RunCost;
}
