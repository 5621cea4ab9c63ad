/**
 * The benchmark suite: `npm run bench` (scripts/run-bench.mjs bundles this file and runs it with
 * --expose-gc). Arguments: `--quick` for small sizes (CI: checks that each benchmark still works),
 * `--charts` to write the charts of benchmarks that draw them to docs/performance (or to the folder in
 * AGENT_TEAM_BENCH_CHARTS), `--load N` to run beside N busy processes of its own (support/load-workers.ts),
 * and benchmark ids (`B1 B3`) to run only those. Prints the table to stdout, progress to stderr, and writes
 * .bench-results/latest.json and latest.md. Every benchmark's wall and CPU time and the load average while
 * it ran are measured here (support/run-cost.ts), and its figures flagged when the machine was busy.
 *
 * Exit code: 0 when every selected benchmark ran, whether or not it met its target (misses are in the
 * table); 1 when a benchmark itself broke; 2 for bad arguments. Targets are never asserted as tests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { benchmarks } from './benchmarks.js';
import { type LoadWorkers, loadArgument, startLoadWorkers } from './support/load-workers.js';
import { runProbe } from './support/probes.js';
import { describeMachine, machineInfo } from './support/machine.js';
import { loadLegend, markdownReport, type RunReport, statusOf, textTable } from './support/report.js';
import { currentLoadAverage, startRunCost } from './support/run-cost.js';
import { now } from './support/stats.js';
import type { Benchmark, BenchmarkResult } from './support/types.js';

const resultsDirectory = '.bench-results';
/** Where `--charts` writes: next to docs/performance.md, which embeds them. */
const chartsFolder = 'docs/performance';

async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--probe') return runProbe(argv.slice(1));
  const quick = argv.includes('--quick');
  const chartsDirectory = process.env.AGENT_TEAM_BENCH_CHARTS || (argv.includes('--charts') ? chartsFolder : undefined);
  const load = loadArgument(argv);
  const loadValueIndex = argv.indexOf('--load') + 1;
  const ids = argv
    .filter((argument, index) => !argument.startsWith('--') && (loadValueIndex === 0 || index !== loadValueIndex))
    .map((argument) => argument.toUpperCase());
  const unknown = ids.filter((id) => !benchmarks.some((benchmark) => benchmark.id === id));
  if (
    load.error ||
    unknown.length > 0 ||
    argv.some((argument) => argument.startsWith('--') && !['--quick', '--charts', '--load'].includes(argument))
  ) {
    if (load.error) console.error(load.error);
    console.error(
      `usage: npm run bench [-- --quick] [-- --charts] [-- --load N] [-- ${benchmarks.map((benchmark) => benchmark.id).join(' ')}]`,
    );
    return 2;
  }
  const selected =
    ids.length === 0
      ? benchmarks.filter((benchmark) => quick || !benchmark.fullRunOnlyWhenNamed)
      : benchmarks.filter((benchmark) => ids.includes(benchmark.id));
  const report: RunReport = {
    startedAt: new Date().toISOString(),
    quick,
    command: commandOf(quick, ids, chartsDirectory, load.workers),
    machine: machineInfo(),
    results: [],
  };
  console.error(
    `Load average ${report.machine.loadAverage} at the start${load.workers ? `; starting ${load.workers} busy processes (--load)` : ''}`,
  );
  let workers: LoadWorkers | undefined;
  // The engine's timers are unref'd (they must never keep the CLI alive); this keeps the run alive instead.
  const keepAlive = setInterval(() => undefined, 60_000);
  try {
    if (load.workers) {
      workers = startLoadWorkers(load.workers);
      report.selfMadeLoad = workers.load;
    }
    for (const benchmark of selected) report.results.push(await runOne(benchmark, quick, chartsDirectory, load.workers ?? 0));
  } finally {
    workers?.stop();
    clearInterval(keepAlive);
  }
  report.loadAverageAtEnd = currentLoadAverage();

  console.log(`\nAgent Team benchmarks${quick ? ' (quick mode: small sizes, figures not comparable to the targets)' : ''}`);
  console.log(`${describeMachine(report.machine)}, ${report.loadAverageAtEnd} at the end\n`);
  console.log(textTable(report.results));
  console.log(`\n${loadLegend(report)}`);
  mkdirSync(resultsDirectory, { recursive: true });
  writeFileSync(`${resultsDirectory}/latest.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${resultsDirectory}/latest.md`, markdownReport(report));
  const broken = report.results.filter((result) => result.status === 'error');
  const missed = report.results.filter((result) => result.status === 'miss');
  console.log(
    `\n${report.results.length} benchmarks: ${broken.length} broken, ${missed.length} missed a target. Written to ${resultsDirectory}/latest.json and latest.md.`,
  );
  return broken.length > 0 ? 1 : 0;
}

async function runOne(
  benchmark: Benchmark,
  quick: boolean,
  chartsDirectory: string | undefined,
  selfMadeLoad: number,
): Promise<BenchmarkResult> {
  const log = (line: string) => console.error(`  ${line}`);
  console.error(`${benchmark.id} ${benchmark.title}…`);
  const start = now();
  const stopCost = startRunCost(selfMadeLoad);
  try {
    const outcome = await benchmark.run({ quick, log, selfMadeLoad, ...(chartsDirectory ? { chartsDirectory } : {}) });
    const durationMs = Math.round(now() - start);
    const base = {
      id: benchmark.id,
      title: benchmark.title,
      measurements: outcome.measurements,
      details: outcome.details,
      durationMs,
      cost: stopCost(),
    };
    if (outcome.skipped !== undefined) return { ...base, status: 'skipped', reason: outcome.skipped };
    return { ...base, status: statusOf(outcome.measurements) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`  ${benchmark.id} broke: ${error instanceof Error ? (error.stack ?? message) : message}`);
    return {
      id: benchmark.id,
      title: benchmark.title,
      status: 'error',
      measurements: [],
      reason: message.split('\n')[0],
      durationMs: Math.round(now() - start),
      cost: stopCost(),
    };
  }
}

/** The command as a reader would type it again. */
function commandOf(quick: boolean, ids: readonly string[], chartsDirectory: string | undefined, loadWorkers: number | undefined): string {
  const options = [...ids, ...(chartsDirectory ? ['--charts'] : []), ...(loadWorkers ? ['--load', String(loadWorkers)] : [])];
  return `npm run bench${quick ? ':quick' : ''}${options.length > 0 ? ` -- ${options.join(' ')}` : ''}`;
}

main(process.argv.slice(2)).then(
  // Exits once stdout has taken the table: open handles (a browser, a server) must not keep a finished run alive.
  (code) => process.stdout.write('', () => process.exit(code)),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
