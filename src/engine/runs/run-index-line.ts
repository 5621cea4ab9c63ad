/**
 * One line of the run index (run-index-file.ts): a run's summary or a tombstone, checked field by field.
 * Opening the log reads every line of the index, 10,000 and more on a long history, on the host's thread:
 * a schema library's parse cost about 10 µs a line there, most of it building the error of the tombstone
 * check that fails on every summary (B14). The checks are exactly the schema's, and the result keeps only
 * the known fields, as the schema did.
 */
import type { TaskStatus } from '../tasks/types.js';
import { safeRunId } from './run-log-records.js';

/** What the index knows of a run (the last line per run wins). */
export interface RunSummary {
  /** The run: its root task's id. */
  runId: string;
  /** The root task's title and role. */
  description: string;
  role: string;
  /** The root task's status. */
  status: TaskStatus;
  createdAt: number;
  /** When one of its tasks last started or ended (the clock of the process that wrote it). */
  updatedAt: number;
  /** The size of its run file, as its writer last knew it. */
  bytes: number;
  /** Every task of the run, in the order they started. */
  taskIds: string[];
  /** Tasks of the run not ended yet when the line was written (a background child may outlive its root). Absent: unknown. */
  openTasks?: number;
}

export type IndexLine = RunSummary | { runId: string; removed: true };

const statuses: ReadonlySet<string> = new Set<TaskStatus>([
  'queued',
  'running',
  'waiting',
  'completed',
  'failed',
  'stopped',
  'interrupted',
]);

/** The line's summary or tombstone, or undefined when it is neither (damaged, or not JSON). */
export function parseIndexLine(line: string): IndexLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  const runId = fields.runId;
  if (typeof runId !== 'string' || !safeRunId.test(runId)) return undefined;
  if (fields.removed === true) return { runId, removed: true };
  const { description, role, status, createdAt, updatedAt, bytes, taskIds, openTasks } = fields;
  if (typeof description !== 'string' || typeof role !== 'string' || typeof status !== 'string' || !statuses.has(status)) return undefined;
  if (!isCount(createdAt) || !isCount(updatedAt) || !isCount(bytes) || (openTasks !== undefined && !isCount(openTasks))) return undefined;
  if (!Array.isArray(taskIds) || !taskIds.every((taskId) => typeof taskId === 'string' && taskId.length > 0)) return undefined;
  const summary: RunSummary = {
    runId,
    description,
    role,
    status: status as TaskStatus,
    createdAt,
    updatedAt,
    bytes,
    taskIds: taskIds as string[],
  };
  if (openTasks !== undefined) summary.openTasks = openTasks;
  return summary;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
