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
  if (!Array.isArray(taskIds) || !taskIds.every(isTaskId)) return undefined;
  // A line as the index writes it is kept as parsed: a copy of each of 10,000 summaries was a third of the
  // garbage an open made (B14). Any other line (unknown or reordered fields) is copied field by field.
  if (hasSummaryFieldsOnly(fields)) return fields as unknown as RunSummary;
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

/** The fields of a summary in the order `JSON.stringify` writes them (run-index.ts `update`, the recorder's `summarize`). */
const summaryFields = ['runId', 'description', 'role', 'status', 'createdAt', 'updatedAt', 'bytes', 'taskIds', 'openTasks'];

/**
 * True when the object's keys are the summary's in its order and nothing else (`openTasks` may be left out:
 * the others were found present by the checks before).
 */
function hasSummaryFieldsOnly(fields: Record<string, unknown>): boolean {
  let position = 0;
  for (const key in fields) {
    if (!Object.hasOwn(fields, key) || key !== summaryFields[position]) return false;
    position++;
  }
  return true;
}

function isTaskId(taskId: unknown): boolean {
  return typeof taskId === 'string' && taskId.length > 0;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
