/**
 * The CLI's run history, in the workspace's `.agent-team/runs/` (ignored by git through its own
 * `.gitignore`, and never read by agents: the workspace policy treats it as secret): the run log, one
 * JSON Lines file per run, so `agent-team run --continue <taskId>` can go on from a finished run and
 * `--resume <runId>` from an interrupted one in a later process. A process reads only the run it goes on
 * with, so what a run costs does not grow with the history; task ids stay unique across the history.
 *
 * The folder is part of the checkout, so anyone who wrote the repository may have put runs there: each
 * run log is signed with a key of the user's, outside the workspace (run-log-key.ts), and a run whose log
 * does not verify is foreign: it is not gone on with (`--resume`, `--continue`) without `--force`.
 */
import { homedir } from 'node:os';
import { lstat, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ConfigurationError,
  defaultLimits,
  describeForeign,
  emptyHistory,
  idsAfter,
  openSignedRunLog,
  type RunLog,
  type TaskStore,
} from '../engine/index.js';
import { RunLocks } from './run-locks.js';

export const runHistoryDirectory = '.agent-team/runs';

/** Days a run is kept (the extension's `agentTeam.historyRetentionDays` default). */
export const cliRetentionDays = defaultLimits.historyRetentionDays;

export interface CliRunHistory {
  runLog: RunLog;
  /** The manager's store: the one run this process goes on with, or nothing for a new run. */
  store: TaskStore;
  /** Task ids no run of the history has (`t1`, `t2`, … skipping those taken). */
  generateId: () => string;
  /** The runs this process writes, one process at a time (run-locks.ts). */
  locks: RunLocks;
}

/** Opens the history; creates its folder (with a `.gitignore` that ignores it all) when missing. */
export async function openRunHistory(
  workspaceRoot: string,
  onWarning: (message: string) => void,
  options: { keepRuns?: number; goesOnWith?: { taskId: string } | { runId: string }; force?: boolean } = {},
): Promise<CliRunHistory> {
  const directory = path.join(workspaceRoot, ...runHistoryDirectory.split('/'));
  // The folder is in the repository, which someone else may have written: a link there would have the
  // history read from, and written to, wherever it points.
  await refuseLinks(workspaceRoot, ['.agent-team', runHistoryDirectory]);
  await mkdir(directory, { recursive: true });
  await writeFile(path.join(directory, '.gitignore'), '# Agent Team run history (agent-team run --continue, --resume)\n*\n', {
    flag: 'wx',
  }).catch(() => undefined);
  const runLog = await openSignedRunLog({
    directory,
    home: homedir(),
    onWarning,
    unsignedConsequence: 'Runs are written unsigned, and every run is treated as foreign (--force to go on with one).',
    retention: { maxAgeDays: cliRetentionDays, ...(options.keepRuns === undefined ? {} : { keepRuns: options.keepRuns }) },
  });
  const goesOnWith = options.goesOnWith;
  const runId = goesOnWith === undefined ? undefined : 'runId' in goesOnWith ? goesOnWith.runId : runLog.runOf(goesOnWith.taskId);
  const locks = new RunLocks(directory, onWarning);
  try {
    // Before anything of the run is read: another process working on it would be run over.
    if (runId !== undefined) locks.claim(runId);
    if (runId !== undefined) await refuseForeign(runLog, runId, options.force === true, onWarning);
  } catch (error) {
    locks.releaseAll();
    await runLog.close();
    throw error;
  }
  const store: TaskStore = { load: () => (runId === undefined ? Promise.resolve(emptyHistory()) : runLog.loadRun(runId)) };
  // Files no index line names (a crash's, or planted) keep their ids: a new run never appends to one.
  const names = await readdir(directory).catch(() => []);
  return { runLog, store, generateId: idsAfter(runLog, names), locks };
}

/**
 * A run this user's agent-team did not write is not gone on with unless `force`: a planted run would
 * have its agents take text the user never wrote as the user's.
 */
async function refuseForeign(runLog: RunLog, runId: string, force: boolean, onWarning: (message: string) => void): Promise<void> {
  const signature = await runLog.signatureOf(runId);
  if (signature?.status !== 'foreign') return;
  if (force) return onWarning(`Run ${runId} is foreign: ${describeForeign(signature)}. Going on with it (--force).`);
  throw new ConfigurationError(
    `Run ${runId} is foreign: ${describeForeign(signature)}. It is not gone on with: its text would reach the agents as yours. If you know where it came from, run again with --force.`,
  );
}

async function refuseLinks(workspaceRoot: string, relativePaths: readonly string[]): Promise<void> {
  for (const relative of relativePaths) {
    const info = await lstat(path.join(workspaceRoot, ...relative.split('/'))).catch(() => undefined);
    if (info?.isSymbolicLink())
      throw new ConfigurationError(
        `${relative} is a link: the run history is not kept through a link (it could read or write anywhere). Remove the link, or run elsewhere.`,
      );
  }
}
