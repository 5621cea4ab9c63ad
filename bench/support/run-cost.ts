/**
 * What a benchmark's run cost the machine, and how busy the machine was meanwhile, so a reader can tell a
 * slow figure from a busy machine. Wall time alone cannot: on a loaded machine a benchmark waits for a
 * core, and its wall time grows while its CPU time does not.
 *
 * - CPU time of this process (`process.cpuUsage()`: user + system, every thread, GC included).
 * - CPU time of its child processes (a browser, a mock server, `rg`, a sandboxed shell): Linux's
 *   `cutime + cstime` from /proc/self/stat, which counts children (and what they waited for in turn) once
 *   they have exited and been reaped. A child still running when the benchmark ends is not in it; off
 *   Linux there is no such figure (null: own process only).
 * - The 1-minute load average, sampled every second: the benchmark is flagged `busyMachine` when it was
 *   ever above `busyLoadAverage`, or always when the run made its own load (`--load`): the average
 *   takes about a minute to catch up with a new level, so the first benchmarks under `--load` would
 *   otherwise look quiet. This process counts in it too (up to ~1 while it computes).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** Above this 1-minute load average a figure is flagged as taken on a busy machine. */
export const busyLoadAverage = 1;

/** Linux reports children's times in clock ticks of USER_HZ, which is 100 on every architecture Node runs on. */
const clockTicksPerSecond = 100;

export interface RunCost {
  /** CPU time of this process during the run (user + system), in ms. */
  cpuMs: number;
  cpuUserMs: number;
  cpuSystemMs: number;
  /** CPU time of child processes that ended during the run, in ms; null where it cannot be read (not Linux). */
  childrenCpuMs: number | null;
  /** The 1-minute load average at the start, at the end, and the highest sampled (every second) between. */
  loadAverage: { atStart: number; atEnd: number; highest: number };
  /** True when the 1-minute load average was above `busyLoadAverage` at any sample, or under `--load`. */
  busyMachine: boolean;
  /** `--load N`: the busy processes the run started beside itself; 0 when none. */
  selfMadeLoad: number;
}

/** CPU time of the reaped children of this process, in ms; null off Linux. */
export function childrenCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces, so split after its closing parenthesis):
    // state is field 3; cutime and cstime are fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) ? (ticks * 1000) / clockTicksPerSecond : null;
  } catch {
    return null;
  }
}

/** The 1-minute load average, to two decimals. */
export function currentLoadAverage(): number {
  return Math.round(loadavg()[0] * 100) / 100;
}

/** Starts measuring; the returned function stops and reports. `selfMadeLoad`: workers of `--load`, default 0. */
export function startRunCost(selfMadeLoad = 0): () => RunCost {
  const cpuStart = process.cpuUsage();
  const childrenStart = childrenCpuMs();
  const atStart = currentLoadAverage();
  let highest = atStart;
  const sampler = setInterval(() => {
    highest = Math.max(highest, currentLoadAverage());
  }, 1000);
  sampler.unref();
  return () => {
    clearInterval(sampler);
    const cpu = process.cpuUsage(cpuStart);
    const childrenEnd = childrenCpuMs();
    const atEnd = currentLoadAverage();
    highest = Math.max(highest, atEnd);
    return {
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      cpuUserMs: Math.round(cpu.user / 1000),
      cpuSystemMs: Math.round(cpu.system / 1000),
      childrenCpuMs: childrenStart === null || childrenEnd === null ? null : Math.round(childrenEnd - childrenStart),
      loadAverage: { atStart, atEnd, highest },
      busyMachine: highest > busyLoadAverage || selfMadeLoad > 0,
      selfMadeLoad,
    };
  };
}

/** Wall and CPU time of a run, for the table: `wall 2.1 s, CPU 2.4 s + children 0.3 s`. */
export function describeRunCost(wallMs: number, cost: RunCost): string {
  const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(milliseconds < 10_000 ? 2 : 1)} s`;
  const children =
    cost.childrenCpuMs === null ? ' (own process only)' : cost.childrenCpuMs > 0 ? ` + children ${seconds(cost.childrenCpuMs)}` : '';
  return `wall ${seconds(wallMs)}, CPU ${seconds(cost.cpuMs)}${children}`;
}

/** The load column: the highest 1-minute load average, marked `busy` above `busyLoadAverage`. */
export function describeLoad(cost: RunCost): string {
  return `${cost.loadAverage.highest.toFixed(2)}${cost.busyMachine ? ' busy' : ''}${cost.selfMadeLoad > 0 ? ` (--load ${cost.selfMadeLoad})` : ''}`;
}
