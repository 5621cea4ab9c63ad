/**
 * B7, search: our `Grep` tool against ripgrep run directly, over a generated tree of 20,000 files. The
 * measuring is bench/grep's (`runGrepBenchmark`, owned with the search engine); this turns its figures into
 * table rows. The target is on the tool using ripgrep (what runs when rg is there), judged on the median of
 * ratios of runs made in turns with rg's (so load moves both), with each side's CPU time per run beside
 * it; the JavaScript engine, the fallback without rg, is shown for information.
 */
import { findRipgrepOnPath } from '../src/engine/workspace/search/find-ripgrep.js';
import { runGrepBenchmark } from './grep/grep-bench.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome, Measurement } from './support/types.js';

export const search: Benchmark = {
  id: 'B7',
  title: 'search',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const ripgrepPath = await findRipgrepOnPath();
    if (ripgrepPath === null)
      return { measurements: [], skipped: 'ripgrep (rg) is not installed: nothing to compare with (apt-get install ripgrep)' };
    const files = context.quick ? 2_000 : 20_000;
    const result = await runGrepBenchmark({ files, runs: context.quick ? 3 : 15, ripgrepPath, log: (line) => context.log(`B7: ${line}`) });
    const measurements: Measurement[] = result.queries.flatMap((query): Measurement[] => [
      {
        name: `Grep / rg, ${query.name} (${result.files.toLocaleString('en-US')} files)`,
        value: query.toolRipgrepRatio,
        unit: '×',
        target: 1.2,
        display: `${query.toolRipgrepRatio.toFixed(2)}× (median of pairs; ${query.toolRipgrepMs} vs ${query.ripgrepDirectMs} ms, CPU ${query.toolRipgrepCpuMs} vs ${query.ripgrepDirectCpuMs} ms)`,
      },
      {
        name: `JavaScript fallback / rg, ${query.name}`,
        value: query.toolJavaScriptRatio,
        unit: '×',
        display: `${query.toolJavaScriptRatio.toFixed(2)}× (${query.toolJavaScriptMs} ms)`,
      },
    ]);
    return { measurements, details: { ...result } };
  },
};
