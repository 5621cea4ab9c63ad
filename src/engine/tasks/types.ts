import type { TranscriptEntry } from '../agent/types.js';
import type { ModelMessage } from '../model/types.js';
import type { TaskSnapshot, TaskStatus } from './task-snapshot.js';

export type { TaskSnapshot, TaskStatus } from './task-snapshot.js';

/** `interrupted` is final too: resuming continues the task as a fresh record (task-revival.ts), not this one. */
export const terminalStatuses: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'stopped', 'interrupted']);

export function isTerminal(status: TaskStatus): boolean {
  return terminalStatuses.has(status);
}

/** The task manager's one event stream: the CLI's JSON, the sidebar and notifications all read it. */
export type TaskEvent =
  | { type: 'task-start'; task: TaskSnapshot }
  | { type: 'task-update'; task: TaskSnapshot }
  | { type: 'task-transcript'; taskId: string; index: number; entry: TranscriptEntry }
  | { type: 'task-text-delta'; taskId: string; text: string }
  /**
   * An agent task's conversation with its model at a turn boundary (before each model request, and at the
   * end): the whole list, which only grows, but whose last message may have gained parts (notices join the
   * pending user message). What the run log keeps so a run can be resumed; views ignore it.
   */
  | { type: 'task-conversation'; taskId: string; messages: readonly ModelMessage[] }
  /**
   * An agent task's conversation was compacted (compaction/): the next `task-conversation` holds the whole
   * new one. `beforeTokens`/`afterTokens`: the next request's estimated size before and after.
   */
  | {
      type: 'task-compaction';
      taskId: string;
      beforeTokens: number;
      afterTokens: number;
      summary: string;
      trigger: 'auto' | 'overflow' | 'manual';
    }
  | { type: 'task-end'; task: TaskSnapshot };
