/**
 * A run of the CLI's history read back for `agent-team runs` and `agent-team apply`: its tasks' last
 * snapshots and its proposals as change sets. Opening the history for these never creates it: a
 * workspace where no run was kept says so.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { ChangeSet, type FileChangeSnapshot, type RunContents, type RunLog, type TaskSnapshot } from '../engine/index.js';
import { openRunHistory, runHistoryDirectory } from './run-history.js';

const listedRecords = new Set(['task', 'changes', 'file-text', 'proposals'] as const);

export interface HistoryRun {
  runId: string;
  /** The run's root task; undefined when its record was lost (a damaged file). */
  root: TaskSnapshot | undefined;
  tasks: ReadonlyMap<string, TaskSnapshot>;
  /** The latest proposals of each task that made any. */
  changeSets: ChangeSet[];
  contents: RunContents;
}

/** The workspace's run log, or undefined when no run was ever kept there. */
export async function existingRunLog(workspaceRoot: string, onWarning: (message: string) => void): Promise<RunLog | undefined> {
  const directory = path.join(workspaceRoot, ...runHistoryDirectory.split('/'));
  if (!(await lstat(directory).catch(() => undefined))) return undefined;
  return (await openRunHistory(workspaceRoot, onWarning)).runLog;
}

export async function readHistoryRun(runLog: RunLog, runId: string, onWarning: (message: string) => void): Promise<HistoryRun | undefined> {
  // Tasks and proposals only: the conversations and transcripts, most of a run, are skipped unparsed.
  const contents = await runLog.read(runId, { only: listedRecords });
  if (!contents) return undefined;
  const tasks = new Map(contents.tasks.map((persisted) => [persisted.task.id, persisted.task]));
  const changeSets: ChangeSet[] = [];
  for (const snapshot of contents.changeSets) {
    if (snapshot.files.length === 0) continue;
    try {
      changeSets.push(ChangeSet.fromSnapshot(snapshot));
    } catch (error) {
      onWarning(
        `The proposals of task ${snapshot.taskId} could not be read back: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  const root = tasks.get(runId) ?? contents.tasks.find((persisted) => persisted.task.parentId === null)?.task;
  return { runId, root, tasks, changeSets, contents };
}

/** A task's files still waiting to be applied: not written yet, and not every hunk rejected. */
export function pendingFiles(changeSet: ChangeSet): FileChangeSnapshot[] {
  return changeSet.snapshot().files.filter((file) => file.status === 'pending' && file.hunks.some((hunk) => hunk.decision !== 'rejected'));
}

/** Every path the run proposed, for the message naming them when `--file` names another. */
export function proposedPaths(run: HistoryRun): string[] {
  return [...new Set(run.changeSets.flatMap((changeSet) => changeSet.paths()))].sort();
}
