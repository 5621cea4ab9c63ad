/**
 * C1's run-log curve: B14's time per event (a new run of a coordinator and two researchers through a real
 * TaskManager with the signed run log attached, flushed) with 10, 100, 1,000 and 10,000 earlier runs in
 * the log's directory, and what opening each took. The logs are opened side by side and their runs made
 * in turns, so the machine's load weighs on every size alike. The curve stops at 10,000 earlier runs:
 * a directory of 100,000 (some 400 MB of run files) is more than a shared machine's temporary disk should
 * take for a benchmark, and B14 shows the index read does not grow per event past 10,000.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type LogUnderTest, openLog, timeOneRun } from '../b14-run-log.js';
import { median } from '../support/stats.js';

export interface RunLogPoint {
  earlierRuns: number;
  /** Median time per event of the new runs, µs. */
  perEventUs: number;
  /** `RunLog.open` on the directory, ms (once per process). */
  openMs: number;
}

export async function runLogCurve(sizes: readonly number[], rounds: number, log: (line: string) => void): Promise<RunLogPoint[]> {
  const base = await mkdtemp(path.join(tmpdir(), 'agent-team-bench-runlog-curve-'));
  const warnings: string[] = [];
  try {
    const logs: LogUnderTest[] = [];
    for (const size of sizes) {
      log(`C1 run log: writing ${size.toLocaleString('en-US')} earlier runs`);
      logs.push(await openLog(path.join(base, `runs-${size}`), size, warnings));
    }
    // Warm-up: the code paths, the page cache, V8's optimizations.
    for (let round = 0; round < 3; round++) for (const each of logs) await timeOneRun(each);
    for (const each of logs) each.perEvent.length = 0;
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? logs : [...logs].reverse();
      for (const each of order) await timeOneRun(each);
    }
    await Promise.all(logs.map((each) => each.runLog.close()));
    if (warnings.length > 0) throw new Error(`the run log warned: ${warnings.slice(0, 3).join('; ')}`);
    return logs.map((each) => {
      const point = { earlierRuns: each.earlierRuns, perEventUs: median(each.perEvent) * 1000, openMs: each.openMs };
      log(
        `C1 run log: ${point.earlierRuns.toLocaleString('en-US')} earlier runs: ${point.perEventUs.toFixed(1)} µs an event, opened in ${point.openMs.toFixed(1)} ms`,
      );
      return point;
    });
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
