/**
 * The CLI's run history, in the workspace's `.agent-team/runs/` (ignored by git through its own
 * `.gitignore`, and never read by agents: the workspace policy treats it as secret): the run log, one
 * JSON Lines file per run, so `agent-team run --continue <taskId>` can go on from a finished run and
 * `--resume <runId>` from an interrupted one in a later process. A process reads only the run it goes on
 * with, so what a run costs does not grow with the history; task ids stay unique across the history.
 */
import { lstat, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError } from '../engine/errors.js';
import { RunLog } from '../engine/runs/run-log.js';
import { idsAfter } from '../engine/runs/run-ids.js';
import { RunLocks } from './run-locks.js';
import { emptyHistory, type TaskStore } from '../engine/tasks/task-store.js';

export const runHistoryDirectory = '.agent-team/runs';

/** Days a run is kept (the extension's `agentTeam.historyRetentionDays` default). */
export const cliRetentionDays = 30;

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
export async function openRunHistory(workspaceRoot: string, onWarning: (message: string) => void, options: { keepRuns?: number; goesOnWith?: { taskId: string } | { runId: string } } = {}): Promise<CliRunHistory> {
  const directory = path.join(workspaceRoot, ...runHistoryDirectory.split('/'));
  // The folder is in the repository, which someone else may have written: a link there would have the
  // history read from, and written to, wherever it points.
  await refuseLinks(workspaceRoot, ['.agent-team', runHistoryDirectory]);
  await mkdir(directory, { recursive: true });
  await writeFile(path.join(directory, '.gitignore'), '# Agent Team run history (agent-team run --continue, --resume)\n*\n', { flag: 'wx' }).catch(() => undefined);
  const runLog = await RunLog.open({ directory, onWarning, retention: { maxAgeDays: cliRetentionDays, ...(options.keepRuns === undefined ? {} : { keepRuns: options.keepRuns }) } });
  const goesOnWith = options.goesOnWith;
  const runId = goesOnWith === undefined ? undefined : 'runId' in goesOnWith ? goesOnWith.runId : runLog.runOf(goesOnWith.taskId);
  const locks = new RunLocks(directory);
  // Before anything of the run is read: another process working on it would be run over.
  if (runId !== undefined) locks.claim(runId);
  const store: TaskStore = { load: () => (runId === undefined ? Promise.resolve(emptyHistory()) : runLog.loadRun(runId)) };
  return { runLog, store, generateId: idsAfter(runLog), locks };
}

async function refuseLinks(workspaceRoot: string, relativePaths: readonly string[]): Promise<void> {
  for (const relative of relativePaths) {
    const info = await lstat(path.join(workspaceRoot, ...relative.split('/'))).catch(() => undefined);
    if (info?.isSymbolicLink()) throw new ConfigurationError(`${relative} is a link: the run history is not kept through a link (it could read or write anywhere). Remove the link, or run elsewhere.`);
  }
}
