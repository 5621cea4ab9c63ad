import type { StopReason } from '../errors.js';
import type { TranscriptEntry } from '../agent/types.js';
import type { Usage } from '../model/types.js';

export type TaskStatus = 'queued' | 'running' | 'completed' | 'failed' | 'stopped';

export const terminalStatuses: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'stopped']);

export function isTerminal(status: TaskStatus): boolean {
  return terminalStatuses.has(status);
}

/** An immutable picture of one task; every event carries one, so consumers never hold live objects. */
export interface TaskSnapshot {
  id: string;
  /** null for a root task (a delegation from the user). */
  parentId: string | null;
  rootId: string;
  /** 0 for a root. */
  depth: number;
  /** Who does the work: a role name (`researcher`), `coordinator`, or any label the caller chooses. */
  role: string;
  /** A 3-5 word title. */
  description: string;
  prompt: string;
  /** The model that ran it, e.g. `anthropic/claude-sonnet-4-5`, when known. */
  model?: string;
  /** True once the caller no longer waits for it (started in the background, or auto-backgrounded). */
  background: boolean;
  status: TaskStatus;
  /** Milliseconds since the epoch, from the manager's injected clock. */
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  /** The final answer, or the partial output of a stopped or failed task. */
  output?: string;
  error?: string;
  stopReason?: StopReason;
  /** This task's own model usage. */
  usage: Usage;
  /** This task's usage plus all its descendants'. */
  treeUsage: Usage;
  /** Number of transcript entries recorded so far (the entries travel in `task-transcript` events). */
  transcriptLength: number;
}

/** The task manager's one event stream: the CLI's JSON, the sidebar and notifications all read it. */
export type TaskEvent =
  | { type: 'task-start'; task: TaskSnapshot }
  | { type: 'task-update'; task: TaskSnapshot }
  | { type: 'task-transcript'; taskId: string; index: number; entry: TranscriptEntry }
  | { type: 'task-text-delta'; taskId: string; text: string }
  | { type: 'task-end'; task: TaskSnapshot };
