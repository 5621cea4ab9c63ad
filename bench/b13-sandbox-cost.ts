/**
 * B13, what the OS sandbox costs a command: the same short command (`true`, so the figure is the
 * sandbox's and the shell's, not the command's) run the way `Bash` runs it, in the sandbox and outside
 * it, interleaved in one run so a busy machine slows both alike. Reported: the p50 of each and the p50 of
 * the paired differences (target: <= 15 ms added at p50). Outside the sandbox `Bash` searches /proc for
 * what the command left running; the shell alone, without that search, is reported too, and the
 * sandbox's cost over it.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { detectSandbox } from '../src/engine/commands/sandbox/sandbox-availability.js';
import { timeCommand } from './support/command-runs.js';
import { median, percentile } from './support/stats.js';
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
      context.log(`B13: ${rounds} rounds of \`true\`, in the sandbox and outside it, interleaved`);
      for (let round = 0; round < rounds; round++) {
        // Alternate which goes first, so neither always runs on a warmer machine.
        const first = round % 2 === 0;
        const outside = first ? await timeCommand('true', place, undefined) : 0;
        const inside = await timeCommand('true', place, availability);
        const outsideAfter = first ? outside : await timeCommand('true', place, undefined);
        const shellAlone = await timeCommand('true', place, undefined, { bare: true });
        sandboxed.push(inside);
        plain.push(outsideAfter);
        added.push(inside - outsideAfter);
        bare.push(shellAlone);
        overBare.push(inside - shellAlone);
      }
      return {
        measurements: [
          {
            name: 'added by the sandbox',
            value: median(added),
            unit: 'ms',
            target: 15,
            display: `p50 ${median(added).toFixed(1)} / p95 ${percentile(added, 0.95).toFixed(1)} ms`,
            note: 'target on p50, paired with the same command outside it',
          },
          { name: 'command in the sandbox', value: median(sandboxed), unit: 'ms', display: `p50 ${median(sandboxed).toFixed(1)} ms` },
          {
            name: 'command outside it',
            value: median(plain),
            unit: 'ms',
            display: `p50 ${median(plain).toFixed(1)} ms`,
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
            value: median(overBare),
            unit: 'ms',
            display: `p50 ${median(overBare).toFixed(1)} / p95 ${percentile(overBare, 0.95).toFixed(1)} ms`,
          },
        ],
        details: { rounds, mechanism: availability.mechanism, sandboxed, plain, bare },
      };
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  },
};
