/**
 * `npm run bench -- --load N`: N busy processes spinning on the CPU for the whole run, so the suite can
 * show its targets hold on a machine that is doing other work (the machines it runs on are shared, with
 * two cores).
 *
 * Child processes, not worker threads: a worker thread's CPU time would count in the benchmark's own
 * `process.cpuUsage()`, and a thread cannot be niced on its own from Node. Each worker is niced 5 above
 * the benchmark (its weight in Linux's scheduler is then about a third of the benchmark's, 335 against
 * 1024): on a core it shares with a worker the benchmark keeps about three quarters of the time, so it
 * feels the load (preempted, caches shared, the other core busy) without being starved, even with more
 * workers than cores. Work a user runs beside Agent Team is not niced, so this is a mild load; the
 * niceness is recorded with the run.
 *
 * The workers are stopped at the end of the run and on any exit of this process (a thrown error
 * included); when it dies of a signal (Ctrl-C, SIGTERM, SIGKILL) each worker notices within a tenth of a
 * second that its parent is gone and exits.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';

/** How much nicer than the benchmark the workers run. */
export const loadWorkerNiceness = 5;

/** The worker: spins in slices of 100 ms, checking in between that its parent is still there. */
const spinScript = `
const parent = Number(process.argv[1]);
for (;;) {
  const until = Date.now() + 100;
  while (Date.now() < until);
  try { process.kill(parent, 0); } catch { process.exit(0); }
}`;

export interface SelfMadeLoad {
  /** Busy processes started for the run. */
  workers: number;
  /** Their nice value (the benchmark's own is `benchmarkNice`). */
  nice: number;
  benchmarkNice: number;
}

export interface LoadWorkers {
  load: SelfMadeLoad;
  /** Kills the workers; safe to call more than once. */
  stop(): void;
}

/** Starts `count` workers; they run until `stop()` or until this process ends. */
export function startLoadWorkers(count: number): LoadWorkers {
  const benchmarkNice = getPriority();
  const nice = Math.min(19, benchmarkNice + loadWorkerNiceness);
  const children: ChildProcess[] = [];
  const stop = () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    process.off('exit', stop);
  };
  // A thrown error ends the run through process.exit: 'exit' covers it. Signals are left to their default
  // action (a handler would wait for the benchmark to yield to the event loop, which a scripted run may not
  // do for seconds): the workers see their parent gone and exit, and Ctrl-C reaches them directly anyway.
  process.on('exit', stop);
  for (let index = 0; index < count; index++) {
    const child = spawn(process.execPath, ['-e', spinScript, String(process.pid)], { stdio: 'ignore' });
    children.push(child);
    if (child.pid !== undefined) setPriority(child.pid, nice); // Raising a child's niceness needs no privilege.
    child.unref();
  }
  return { load: { workers: count, nice, benchmarkNice }, stop };
}

/** The `--load N` argument: N, undefined when absent, or an error message. */
export function loadArgument(argv: readonly string[]): { workers?: number; error?: string } {
  const index = argv.indexOf('--load');
  if (index === -1) return {};
  const value = Number(argv[index + 1]);
  if (!Number.isInteger(value) || value < 1 || value > 64) return { error: '--load takes a number of busy processes, 1 to 64' };
  return { workers: value };
}
