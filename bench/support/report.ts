/** The results as a table (plain text for the terminal, Markdown for docs/performance.md) and as JSON. */
import type { SelfMadeLoad } from './load-workers.js';
import { type MachineInfo, describeMachine } from './machine.js';
import { busyLoadAverage, describeLoad, describeRunCost } from './run-cost.js';
import { formatNumber } from './stats.js';
import type { BenchmarkResult, BenchmarkStatus, Measurement } from './types.js';

export interface RunReport {
  /** ISO time the run started. */
  startedAt: string;
  quick: boolean;
  command: string;
  machine: MachineInfo;
  /** The 1-minute load average when the run ended (the machine's at the start is in `machine`). */
  loadAverageAtEnd?: number;
  /** `--load N`: the busy processes the run started beside itself. Default: none. */
  selfMadeLoad?: SelfMadeLoad;
  results: BenchmarkResult[];
}

interface Row {
  id: string;
  what: string;
  figure: string;
  target: string;
  /** The same-run baseline the figure is judged beside, where it has one. */
  baseline: string;
  result: string;
  /** The benchmark's wall and CPU time, on its first row (its main figure). */
  cost: string;
  /** The highest 1-minute load average while it ran, `busy` above 1. */
  load: string;
}

/** The overall status of a benchmark from its figures. */
export function statusOf(measurements: readonly Measurement[]): BenchmarkStatus {
  return measurements.some((measurement) => rowResult(measurement) === 'MISS') ? 'miss' : 'pass';
}

/** `12.3 ms`, `1.05` (no unit). */
function withUnit(value: number, unit: string): string {
  return unit === '' ? formatNumber(value) : `${formatNumber(value)} ${unit}`;
}

export function formatFigure(measurement: Measurement): string {
  const figure = measurement.display ?? (measurement.value === null ? '—' : withUnit(measurement.value, measurement.unit));
  return measurement.note ? `${figure} (${measurement.note})` : figure;
}

function formatTarget(measurement: Measurement): string {
  return measurement.target === undefined ? '' : `≤ ${withUnit(measurement.target, measurement.unit)}`;
}

function rowResult(measurement: Measurement): string {
  if (measurement.target === undefined) return '';
  if (measurement.value === null) return 'skipped';
  return measurement.value <= measurement.target ? 'pass' : 'MISS';
}

function rowsOf(results: readonly BenchmarkResult[]): Row[] {
  const rows: Row[] = [];
  for (const result of results) {
    const first = rows.length;
    const load = result.cost ? describeLoad(result.cost) : '';
    if (result.status === 'error' || result.status === 'skipped') {
      rows.push({
        id: result.id,
        what: result.title,
        figure: `${result.status}: ${result.reason ?? ''}`,
        target: '',
        baseline: '',
        result: result.status === 'error' ? 'ERROR' : 'skipped',
        cost: '',
        load,
      });
    }
    if (result.status !== 'error') {
      for (const measurement of result.measurements) {
        rows.push({
          id: result.id,
          what: `${result.title}: ${measurement.name}`,
          figure: formatFigure(measurement),
          target: formatTarget(measurement),
          baseline: measurement.baseline ?? '',
          result: rowResult(measurement),
          cost: '',
          load,
        });
      }
    }
    if (result.cost && rows.length > first) rows[first].cost = describeRunCost(result.durationMs, result.cost);
  }
  return rows;
}

const headings: Row = {
  id: 'id',
  what: 'what',
  figure: 'figure',
  target: 'target',
  baseline: 'same-run baseline',
  result: 'result',
  cost: 'wall / CPU (whole benchmark)',
  load: 'load',
};
const columns: Array<keyof Row> = ['id', 'what', 'figure', 'target', 'baseline', 'result', 'cost', 'load'];

/** Says what the load column's marker means, and whether the run made its own load. */
export function loadLegend(report: RunReport): string {
  const selfMade = report.selfMadeLoad
    ? ` Under self-made load: ${report.selfMadeLoad.workers} busy processes at nice ${report.selfMadeLoad.nice} (the benchmark at ${report.selfMadeLoad.benchmarkNice}).`
    : '';
  return `load: the highest 1-minute load average while the benchmark ran; busy: above ${busyLoadAverage}, its figures were taken on a busy machine.${selfMade}`;
}

/** A fixed-width table for the terminal. */
export function textTable(results: readonly BenchmarkResult[]): string {
  const rows = [headings, ...rowsOf(results)];
  const widths = columns.map((column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (row: Row) =>
    columns
      .map((column, index) => row[column].padEnd(widths[index]))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(headings), rule, ...rows.slice(1).map(line)].join('\n');
}

/** The same table in Markdown, with the machine and the command, ready for docs/performance.md. */
export function markdownReport(report: RunReport): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const rows = rowsOf(report.results).map((row) => `| ${columns.map((column) => escape(row[column])).join(' | ')} |`);
  return [
    `Run ${report.startedAt} with \`${report.command}\`${report.quick ? ' (quick mode: small sizes)' : ''}.`,
    `Machine: ${describeMachine(report.machine)}${report.loadAverageAtEnd === undefined ? '' : `, ${report.loadAverageAtEnd} at the end`}.`,
    '',
    `| ${columns.map((column) => headings[column]).join(' | ')} |`,
    `|${columns.map(() => ' --- |').join('')}`,
    ...rows,
    '',
    loadLegend(report),
    '',
  ].join('\n');
}
