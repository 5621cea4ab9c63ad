/**
 * B13, what the OS sandbox costs a command: the same short command (`true`, so the figure is the
 * sandbox's and the shell's, not the command's) run the way `Bash` runs it, in the sandbox and outside
 * it, interleaved in one run so a busy machine slows both alike. Reported: the p50 of each and the p50 of
 * the paired differences with its 95 % confidence interval (bench/support/confidence-interval.ts), judged on
 * the interval's upper end (target: <= 6 ms added at p50), so that neither a lucky run passes nor a pair read
 * below zero on a busy machine counts as a saving. Outside the sandbox `Bash` searches /proc for what the
 * command left running; the shell alone, without that search, is reported too, and the sandbox's cost over it.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { detectSandbox } from '../src/engine/commands/sandbox/sandbox-availability.js';
import { asCost, describeInterval, medianInterval } from './support/confidence-interval.js';
import { timeCommand } from './support/command-runs.js';
import { childrenCpuMs } from './support/run-cost.js';
import { median } from './support/stats.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome } from './support/types.js';

export const sandboxCost: Benchmark = {
  id: 'B13',
  title: 'Command sandbox cost',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const availability = await detectSandbox();
    if (!availability.available) return { measurements: [], skipped: `no sandbox here: ${availability.reason}` };
    const rounds = context.quick ? 10 : 200;
    const base = await mkdtemp(path.join(tmpdir(), 'agent-team-bench-sandbox-'));
    const copy = path.join(base, 'copy');
    const workspace = path.join(base, 'workspace');
    await Promise.all([mkdir(copy), mkdir(workspace)]);
    const place = { cwd: copy, workspaceRoot: workspace, copy: { writable: [copy], readOnly: [] } };
    try {
      // Warm both paths (bash, bwrap and the page cache) before measuring.
      for (let round = 0; round < 3; round++)
        await Promise.all([timeCommand('true', place, availability), timeCommand('true', place, undefined)]);
      const sandboxed: number[] = [];
      const plain: number[] = [];
      const added: number[] = [];
      const bare: number[] = [];
      const overBare: number[] = [];
      // CPU (this process's and the ended children's), summed: the children's clock ticks are too coarse for one command.
      const cpu = { inside: 0, outside: 0 };
      context.log(`B13: ${rounds} rounds of \`true\`, in the sandbox and outside it, interleaved`);
      for (let round = 0; round < rounds; round++) {
        // Alternate which goes first, so neither always runs on a warmer machine.
        const first = round % 2 === 0;
        const outside = first ? await cpuCounted(cpu, 'outside', () => timeCommand('true', place, undefined)) : 0;
        const inside = await cpuCounted(cpu, 'inside', () => timeCommand('true', place, availability));
        const outsideAfter = first ? outside : await cpuCounted(cpu, 'outside', () => timeCommand('true', place, undefined));
        const shellAlone = await timeCommand('true', place, undefined, { bare: true });
        sandboxed.push(inside);
        plain.push(outsideAfter);
        added.push(inside - outsideAfter);
        bare.push(shellAlone);
        overBare.push(inside - shellAlone);
      }
      // A cost cannot be negative: a pair read below zero is noise, and the interval is shown from 0.
      const addedInterval = asCost(medianInterval(added));
      const overBareInterval = asCost(medianInterval(overBare));
      return {
        measurements: [
          {
            name: 'added by the sandbox',
            // Judged on the interval's upper end: the figure passes only when the noise cannot explain it.
            value: addedInterval.high,
            unit: 'ms',
            target: 6,
            display: describeInterval(addedInterval, 'ms', { label: 'added p50' }),
            note: 'target on the upper end of the interval; paired with the same command outside it',
          },
          {
            name: 'command in the sandbox',
            value: median(sandboxed),
            unit: 'ms',
            display: `p50 ${median(sandboxed).toFixed(1)} ms, CPU ${(cpu.inside / rounds).toFixed(1)} ms a command`,
          },
          {
            name: 'command outside it',
            value: median(plain),
            unit: 'ms',
            display: `p50 ${median(plain).toFixed(1)} ms, CPU ${(cpu.outside / rounds).toFixed(1)} ms a command`,
            note: 'with the search for leftover processes',
          },
          {
            name: 'the shell alone',
            value: median(bare),
            unit: 'ms',
            display: `p50 ${median(bare).toFixed(1)} ms`,
            note: 'no sandbox, no search',
          },
          {
            name: 'sandbox over the shell alone',
            value: overBareInterval.high,
            unit: 'ms',
            display: describeInterval(overBareInterval, 'ms', { label: 'p50' }),
          },
        ],
        details: {
          rounds,
          mechanism: availability.mechanism,
          sandboxed,
          plain,
          bare,
          added,
          overBare,
          addedInterval,
          overBareInterval,
          cpu,
        },
      };
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  },
};

/** Runs `step`, adding the CPU it took (this process and its ended children) to `totals[side]`. */
async function cpuCounted<T>(totals: Record<'inside' | 'outside', number>, side: 'inside' | 'outside', step: () => Promise<T>): Promise<T> {
  const before = cpuSoFar();
  const value = await step();
  totals[side] += cpuSoFar() - before;
  return value;
}

function cpuSoFar(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1000 + (childrenCpuMs() ?? 0);
}
