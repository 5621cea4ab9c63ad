// The harness's CPU and load columns and the `--load` argument: a reader must be able to trust the flag.
import { describe, expect, it } from 'vitest';
import { loadArgument } from '../../bench/support/load-workers.js';
import { loadLegend, markdownReport, type RunReport, textTable } from '../../bench/support/report.js';
import { childrenCpuMs, type RunCost, startRunCost } from '../../bench/support/run-cost.js';
import type { BenchmarkResult } from '../../bench/support/types.js';

function cost(highestLoad: number, childrenCpu: number | null = 300): RunCost {
  return {
    cpuMs: 2400,
    cpuUserMs: 2000,
    cpuSystemMs: 400,
    childrenCpuMs: childrenCpu,
    loadAverage: { atStart: highestLoad, atEnd: highestLoad, highest: highestLoad },
    busyMachine: highestLoad > 1,
    selfMadeLoad: 0,
  };
}

function result(id: string, highestLoad: number, childrenCpu: number | null = 300): BenchmarkResult {
  return {
    id,
    title: 'stop latency',
    status: 'pass',
    durationMs: 2100,
    measurements: [
      { name: 'stop → request closed', value: 0.8, unit: 'ms', target: 10 },
      { name: 'stop → task-end', value: 0.3, unit: 'ms' },
    ],
    cost: cost(highestLoad, childrenCpu),
  };
}

describe('the CPU and load columns', () => {
  it('shows wall and CPU on the main figure only, and marks every figure taken above load 1 as busy', () => {
    const lines = textTable([result('B3', 3.7), result('B12', 0.4, null)]).split('\n');
    const [mainB3, otherB3, mainB12, otherB12] = lines.slice(2);
    expect(mainB3).toContain('wall 2.10 s, CPU 2.40 s + children 0.30 s');
    expect(mainB3).toMatch(/3\.70 busy$/);
    expect(otherB3).not.toContain('wall');
    expect(otherB3).toMatch(/3\.70 busy$/);
    expect(mainB12).toContain('CPU 2.40 s (own process only)');
    expect(mainB12).toMatch(/0\.40$/);
    expect(otherB12).not.toContain('busy');
  });

  it('says in the Markdown report when the run made its own load', () => {
    const report: RunReport = {
      startedAt: '2026-11-25T09:00:00.000Z',
      quick: true,
      command: 'npm run bench:quick -- --load 2',
      machine: { cpu: 'test', cores: 2, memoryGiB: 8, os: 'Linux', node: 'v20', loadAverage: 2.5 },
      selfMadeLoad: { workers: 2, nice: 5, benchmarkNice: 0 },
      results: [result('B3', 2.5)],
    };
    expect(loadLegend(report)).toContain('2 busy processes at nice 5');
    expect(markdownReport(report)).toContain('| wall / CPU (whole benchmark) | load |');
  });

  it('measures this process and reads the children where Linux tells', async () => {
    const stop = startRunCost();
    const until = Date.now() + 20;
    while (Date.now() < until);
    const measured = stop();
    expect(measured.cpuMs).toBeGreaterThanOrEqual(10);
    expect(measured.busyMachine).toBe(measured.loadAverage.highest > 1);
    expect(startRunCost(2)()).toMatchObject({ busyMachine: true, selfMadeLoad: 2 });
    if (process.platform === 'linux') expect(childrenCpuMs()).toBeGreaterThanOrEqual(0);
  });
});

describe('--load', () => {
  it('takes a number of busy processes', () => {
    expect(loadArgument(['B1', '--load', '2'])).toEqual({ workers: 2 });
    expect(loadArgument(['B1'])).toEqual({});
    expect(loadArgument(['--load'])).toHaveProperty('error');
    expect(loadArgument(['--load', 'B1'])).toHaveProperty('error');
  });
});
