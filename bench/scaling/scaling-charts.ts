/**
 * The three scaling charts of docs/performance.md ("How cost grows with work"), from the curves' points:
 * tasks on a log axis, the per-task figure on the other, the issue's target as a dashed line.
 */
import { delegationTargetUs } from '../b1-delegation-overhead.js';
import { firstRenderTargetMs } from '../b4-sidebar.js';
import { heapPerThousandTargetMb } from '../b6-memory.js';
import { lineChart } from '../support/svg-chart.js';
import type { DelegationPoint } from './delegation-curve.js';
import type { MemoryPoint } from './memory-curve.js';
import type { SidebarPoint } from './sidebar-curve.js';
import type { RunLogPoint } from './run-log-curve.js';
import type { SubagentsPoint } from './subagents-curve.js';

const xLabel = 'tasks (log scale)';

export function delegationChart(points: readonly DelegationPoint[], note: string): string {
  return lineChart({
    title: 'B1: engine time per delegation, by tasks run',
    xLabel,
    yLabel: 'time per delegation (µs)',
    series: [
      { name: 'wall (median run)', points: points.map((point) => ({ x: point.tasks, y: point.perDelegationUs })) },
      { name: 'process CPU', points: points.map((point) => ({ x: point.tasks, y: point.cpuPerDelegationUs })) },
    ],
    targets: [{ value: delegationTargetUs, label: `≤ ${delegationTargetUs} µs` }],
    note,
  });
}

export function sidebarChart(points: readonly SidebarPoint[], note: string): string {
  return lineChart({
    title: 'B4: sidebar render time, by tasks in the history',
    xLabel,
    yLabel: 'time (ms, log scale)',
    yScale: 'log',
    series: [
      { name: 'first render', points: points.map((point) => ({ x: point.tasks, y: point.firstRenderMs })) },
      { name: 'one status update', points: points.map((point) => ({ x: point.tasks, y: point.updateMs })) },
    ],
    targets: [
      { value: firstRenderTargetMs, label: `≤ ${firstRenderTargetMs} ms (first render, 100,000 tasks)` },
      { value: 4, label: '≤ 4 ms' },
    ],
    note,
  });
}

export function memoryChart(points: readonly MemoryPoint[], note: string): string {
  return lineChart({
    title: 'B6: heap per 1,000 finished tasks, by tasks kept',
    xLabel,
    yLabel: 'heap over baseline per 1,000 tasks (MB)',
    series: [
      { name: 'heap', points: points.map((point) => ({ x: point.tasks, y: point.perThousandMb })) },
      { name: 'transcripts as JSON', points: points.map((point) => ({ x: point.tasks, y: point.transcriptsPerThousandMb })) },
    ],
    targets: [{ value: heapPerThousandTargetMb, label: `≤ ${heapPerThousandTargetMb} MB` }],
    note,
  });
}

const subagentsLabel = 'background subagents at once (log scale)';

/** Main-thread time per subagent by how many run at once, a line per provider. */
export function subagentsTimeChart(points: readonly SubagentsPoint[], note: string): string {
  return lineChart({
    title: 'Concurrent background subagents: main-thread time per subagent',
    xLabel: subagentsLabel,
    yLabel: 'main thread busy per subagent (ms)',
    series: providersOf(points).map((provider) => ({
      name: provider,
      points: points
        .filter((point) => point.provider === provider)
        .map((point) => ({ x: point.subagents, y: point.mainThreadPerSubagentMs })),
    })),
    note,
  });
}

/** Heap held per subagent while all of them are in flight, a line per provider. */
export function subagentsMemoryChart(points: readonly SubagentsPoint[], note: string): string {
  return lineChart({
    title: 'Concurrent background subagents: heap per subagent in flight',
    xLabel: subagentsLabel,
    yLabel: 'heap over the idle team per subagent (KB)',
    series: providersOf(points).map((provider) => ({
      name: provider,
      points: points.filter((point) => point.provider === provider).map((point) => ({ x: point.subagents, y: point.heapPerSubagentKb })),
    })),
    note,
  });
}

function providersOf(points: readonly SubagentsPoint[]): string[] {
  return [...new Set(points.map((point) => point.provider))];
}

/** The run log's time per event by the runs already in its directory, with B14's bound (1.5× the smallest). */
export function runLogChart(points: readonly RunLogPoint[], note: string): string {
  const smallest = points[0]?.perEventUs ?? 0;
  return lineChart({
    title: 'Run log: time per event, by earlier runs in the log',
    xLabel: 'earlier runs (log scale)',
    yLabel: 'time per event, flushed (µs)',
    series: [{ name: 'time per event (median of runs)', points: points.map((point) => ({ x: point.earlierRuns, y: point.perEventUs })) }],
    targets: [{ value: smallest * 1.5, label: `≤ 1.5× the 10-run figure (B14)` }],
    note,
  });
}
