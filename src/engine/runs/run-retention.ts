/**
 * Retention: whole runs go, oldest first (by when they last changed), once they are older than the age
 * limit, beyond the number kept, or while all of them together are over the size limit. A run still
 * working is never removed: one whose root is queued, running or waiting, or with a task its writer
 * last knew unfinished (a background child outliving its root), by the index, and any run this process
 * is writing. The one exception is age: an unfinished run nobody has touched for longer than the age
 * limit was left by a process that died, and would otherwise be kept for ever.
 *
 * It walks the index from the oldest run and stops at the first run that breaks no limit, so its cost is
 * the runs it removes (and the unfinished ones it passes), not the whole history: it runs after every
 * run's end.
 */
import type { RunSummary } from './run-index.js';
import { defaultLimits, defaults } from '../limits.js';

export interface RetentionOptions {
  /** Runs not changed for longer than this are removed. Default: `defaultLimits.historyRetentionDays` (30); Infinity keeps them. */
  maxAgeDays?: number;
  /** At most this many runs are kept (the newest). Default: no limit. */
  keepRuns?: number;
  /** The oldest runs are removed while all runs' files together are larger. Default: `defaults.historyMaxBytes` (1 GiB); Infinity: no limit. */
  maxBytes?: number;
}

export interface RetentionPolicy {
  maxAgeMs: number;
  keepRuns: number;
  maxBytes: number;
}

const dayMs = 24 * 60 * 60 * 1000;

export function resolveRetention(options: RetentionOptions = {}): RetentionPolicy {
  return {
    maxAgeMs: (options.maxAgeDays ?? defaultLimits.historyRetentionDays) * dayMs,
    keepRuns: options.keepRuns ?? Infinity,
    maxBytes: options.maxBytes ?? defaults.historyMaxBytes,
  };
}

export interface RetentionState {
  /** The runs, oldest first. */
  runs: Iterable<RunSummary>;
  /** How many runs there are, and their files' total size. */
  count: number;
  totalBytes: number;
  now: number;
  /** True for a run this process is writing (it has a task open, or lines not yet written). */
  isBeingWritten(runId: string): boolean;
}

/** The runs to remove, oldest first. */
export function runsToPrune(state: RetentionState, policy: RetentionPolicy): RunSummary[] {
  const removed: RunSummary[] = [];
  let bytes = state.totalBytes;
  let position = 0;
  for (const run of state.runs) {
    const tooOld = state.now - run.updatedAt > policy.maxAgeMs;
    // Beyond the count: at least `keepRuns` runs are newer than this one.
    const tooMany = state.count - 1 - position >= policy.keepRuns;
    position++;
    if (!tooOld && !tooMany && bytes <= policy.maxBytes) break;
    if (state.isBeingWritten(run.runId) || (isUnfinished(run) && !tooOld)) continue;
    removed.push(run);
    bytes -= run.bytes;
  }
  return removed;
}

export function isUnfinished(run: RunSummary): boolean {
  return run.status === 'queued' || run.status === 'running' || run.status === 'waiting' || (run.openTasks ?? 0) > 0;
}

/** Removes what `runsToPrune` picks, each through `removeRun` (the file, then its tombstone); returns their ids. */
export async function pruneRuns(
  state: RetentionState,
  policy: RetentionPolicy,
  removeRun: (runId: string) => Promise<void>,
): Promise<string[]> {
  const victims = runsToPrune(state, policy);
  for (const run of victims) await removeRun(run.runId);
  return victims.map((run) => run.runId);
}
