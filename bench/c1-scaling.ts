/**
 * C1, scaling curves: B1, B4 and B6 at four sizes each (10 → 100,000 tasks), to show how cost grows with
 * work: the per-task figures should stay flat. A full run takes minutes, so `npm run bench` runs it only
 * when named (`npm run bench -- C1`); quick runs include it at small sizes. With `--charts` (or
 * AGENT_TEAM_BENCH_CHARTS) it writes b1-, b4- and b6-scaling.svg, which docs/performance.md embeds.
 *
 * Also the run log's time per event by earlier runs (scaling/run-log-curve.ts, judged as B14: ≤ 1.5× the
 * smallest), and the curve of concurrent background subagents (1, 10, 100, 500 at once, against the mock
 * providers: scaling/subagents-curve.ts), with two charts of its own.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as nodePath from 'node:path';
import { delegationTargetUs } from './b1-delegation-overhead.js';
import { firstRenderTargetMs } from './b4-sidebar.js';
import { heapPerThousandTargetMb } from './b6-memory.js';
import { delegationCurve } from './scaling/delegation-curve.js';
import { memoryCurve } from './scaling/memory-curve.js';
import { runLogCurve } from './scaling/run-log-curve.js';
import {
  delegationChart,
  memoryChart,
  runLogChart,
  sidebarChart,
  subagentsMemoryChart,
  subagentsTimeChart,
} from './scaling/scaling-charts.js';
import { subagentsCurve } from './scaling/subagents-curve.js';
import { providers } from './support/mock-models.js';
import { sidebarCurve } from './scaling/sidebar-curve.js';
import { describeMachine, machineInfo } from './support/machine.js';
import { formatNumber } from './support/stats.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome, Measurement } from './support/types.js';

const fullSizes = {
  delegation: [10, 1_000, 10_000, 100_000],
  sidebar: [10, 1_000, 10_000, 100_000],
  memory: [10, 1_000, 10_000, 100_000],
  subagents: [1, 10, 100, 500],
  runLog: [10, 100, 1_000, 10_000],
};
const quickSizes = {
  delegation: [10, 100, 300, 1_000],
  sidebar: [10, 100, 1_000, 3_000],
  memory: [10, 50, 100, 200],
  subagents: [1, 5, 10, 20],
  runLog: [10, 30, 100, 200],
};

/** One table row for a curve: every size's figure, the worst one judged against the target. */
function curveRow(
  name: string,
  sizes: readonly number[],
  values: readonly number[],
  unit: string,
  target: number,
  judgedFrom = 0,
): Measurement {
  const shown = values.map((value, index) => `${formatNumber(value)} @ ${sizes[index].toLocaleString('en-US')}`).join(', ');
  // `judgedFrom`: sizes below it are shown but not judged (a per-task figure of a few tasks is one
  // reading's noise, or a fixed cost spread thin).
  const judged = values.filter((_, index) => sizes[index] >= judgedFrom);
  const note = judgedFrom > 0 ? `target on the worst from ${judgedFrom.toLocaleString('en-US')} tasks` : 'target on the worst';
  return { name, value: Math.max(...judged), unit, target, display: `${shown} ${unit}`, note };
}

/** The curves a run draws: all, or those AGENT_TEAM_BENCH_C1_CURVES lists (b1, b4, b6, subagents, runlog), to redo one. */
const allCurves = ['b1', 'b4', 'b6', 'subagents', 'runlog'] as const;
function curvesToRun(): Set<string> {
  const listed = process.env.AGENT_TEAM_BENCH_C1_CURVES?.split(',').map((name) => name.trim().toLowerCase());
  return new Set(listed && listed.length > 0 ? listed : allCurves);
}

function writeChart(directory: string, name: string, svg: string, log: (line: string) => void): void {
  mkdirSync(directory, { recursive: true });
  const path = nodePath.join(directory, name);
  writeFileSync(path, svg);
  log(`C1: wrote ${path}`);
}

export const scalingCurves: Benchmark = {
  id: 'C1',
  title: 'scaling curves',
  fullRunOnlyWhenNamed: true,
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const sizes = context.quick ? quickSizes : fullSizes;
    const machine = machineInfo();
    const curves = curvesToRun();
    const delegation = curves.has('b1') ? await delegationCurve(sizes.delegation, context.quick ? 200 : 10_000, context.log) : [];
    const sidebar = curves.has('b4')
      ? await sidebarCurve(sizes.sidebar, context.quick ? 1 : 3, context.quick ? 10 : 50, context.log)
      : { unavailable: 'not asked for (AGENT_TEAM_BENCH_C1_CURVES)' };
    const memory = curves.has('b6') ? await memoryCurve(sizes.memory, context.log) : [];
    const subagents = curves.has('subagents') ? await subagentsCurve(sizes.subagents, providers, context.log) : [];
    const runLog = curves.has('runlog') ? await runLogCurve(sizes.runLog, context.quick ? 5 : 30, context.log) : [];
    const measurements: Measurement[] = [];
    if (delegation.length > 0)
      measurements.push(
        curveRow(
          'B1 time per delegation, by tasks run',
          sizes.delegation,
          delegation.map((point) => point.perDelegationUs),
          'µs',
          delegationTargetUs,
        ),
      );
    if (!('unavailable' in sidebar)) {
      measurements.push(
        curveRow(
          'B4 first render, by tasks in the history',
          sizes.sidebar,
          sidebar.map((point) => point.firstRenderMs),
          'ms',
          firstRenderTargetMs,
        ),
        curveRow(
          'B4 one status update, by tasks in the history',
          sizes.sidebar,
          sidebar.map((point) => point.updateMs),
          'ms',
          4,
        ),
      );
    } else measurements.push({ name: 'B4 curve', value: null, unit: 'ms', display: `skipped: ${sidebar.unavailable}` });
    if (memory.length > 0)
      measurements.push(
        curveRow(
          'B6 heap per 1,000 tasks, by tasks kept',
          memory.map((point) => point.tasks),
          memory.map((point) => point.perThousandMb),
          'MB',
          heapPerThousandTargetMb,
          1_000,
        ),
      );
    if (runLog.length > 0)
      measurements.push({
        ...curveRow(
          'run log time per event, by earlier runs',
          sizes.runLog,
          runLog.map((point) => point.perEventUs / runLog[0].perEventUs),
          '×',
          1.5,
        ),
        display: `${runLog.map((point) => `${formatNumber(point.perEventUs)} µs @ ${point.earlierRuns.toLocaleString('en-US')}`).join(', ')} (opened in ${runLog.map((point) => `${formatNumber(point.openMs)} ms`).join(', ')})`,
        baseline: `${formatNumber(runLog[0].perEventUs)} µs an event with ${runLog[0].earlierRuns} earlier runs`,
      });
    for (const provider of subagents.length > 0 ? providers : []) {
      const own = subagents.filter((point) => point.provider === provider);
      const shown = (value: (point: (typeof own)[number]) => number) =>
        own.map((point) => `${formatNumber(value(point))} @ ${point.subagents}`).join(', ');
      // Shown, not judged: flat is the aim, and the spread of the small sizes is one reading's noise.
      measurements.push(
        {
          name: `background subagents at once, ${provider}: main thread per subagent`,
          value: Math.max(...own.map((point) => point.mainThreadPerSubagentMs)),
          unit: 'ms',
          display: `${shown((point) => point.mainThreadPerSubagentMs)} ms`,
        },
        {
          name: `background subagents at once, ${provider}: heap per subagent in flight`,
          value: Math.max(...own.map((point) => point.heapPerSubagentKb)),
          unit: 'KB',
          display: `${shown((point) => point.heapPerSubagentKb)} KB`,
        },
      );
    }

    if (context.chartsDirectory) {
      const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
      const note = `${when} UTC, npm run bench -- C1${context.quick ? ' --quick' : ''} --charts${context.selfMadeLoad ? ` --load ${context.selfMadeLoad}` : ''}. ${describeMachine(machine)}, ${Math.round(loadavg()[0] * 100) / 100} at the end.`;
      if (delegation.length > 0)
        writeChart(
          context.chartsDirectory,
          'b1-scaling.svg',
          delegationChart(delegation, `${note} Sizes of 1,000 tasks or fewer: median of repeated runs in fresh teams.`),
          context.log,
        );
      if (!('unavailable' in sidebar))
        writeChart(
          context.chartsDirectory,
          'b4-scaling.svg',
          sidebarChart(sidebar, `${note} Headless Chromium, 360×900 sidebar.`),
          context.log,
        );
      if (memory.length > 0) writeChart(context.chartsDirectory, 'b6-scaling.svg', memoryChart(memory, note), context.log);
      if (runLog.length > 0) writeChart(context.chartsDirectory, 'run-log-scaling.svg', runLogChart(runLog, note), context.log);
      if (subagents.length > 0) {
        const mock = `${note} Real SDKs over HTTP to the mock provider (a child process, 250 ms a response).`;
        writeChart(context.chartsDirectory, 'subagents-time-scaling.svg', subagentsTimeChart(subagents, mock), context.log);
        writeChart(context.chartsDirectory, 'subagents-memory-scaling.svg', subagentsMemoryChart(subagents, mock), context.log);
      }
    }
    return { measurements, details: { sizes, delegation, sidebar, memory, subagents, runLog } };
  },
};
