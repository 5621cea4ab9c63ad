import type { JsonSchema } from '../roles/json-schema.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { TaskWork } from '../tasks/work.js';

/** A role as the `Agent` tool offers it to the model. */
export interface RosterEntry {
  name: string;
  description: string;
  /**
   * Tools of this role the delegating agent lacks (see delegation-reach.ts): when any, the role is listed
   * as out of reach and an `Agent` call for it is refused. Default: none.
   */
  toolsBeyondReach?: readonly string[];
  /** `task` and `chat` roles may talk to the user, so they run in the foreground only. Default `single_turn`. */
  mode?: 'single_turn' | 'task' | 'chat';
  /** The JSON its prompt must be (its role's `inputSchema`): a prompt that is not is refused before the task starts. Default: any prompt. */
  inputSchema?: JsonSchema;
}

/**
 * What the delegation tools of one task need: the task manager, the task they act for, and how to make
 * the work of a subagent. One scope per running task, so a subagent can only see and stop its own tree.
 */
export interface DelegationScope {
  taskManager: TaskManager;
  /** The task whose model calls these tools; new subagents become its children. */
  parentTaskId: string;
  /** The roles a subagent may take, read on every call so that edited role files apply at once. */
  roster(): RosterEntry[];
  /** The work of a subagent of `role` given `prompt`; called only for roles in the roster. */
  workFor(role: string, prompt: string): TaskWork;
  /**
   * How long a foreground `Agent` call waits before the subagent moves to the background and the model
   * gets its id. `Infinity`: wait to the end. Default: the task manager's (`TaskManagerOptions.autoBackgroundMs`).
   */
  autoBackgroundMs?: number;
  /** A line about the task's proposed edits, e.g. "Proposed edits awaiting review: src/a.ts (+3 −1)". */
  describeChanges?(taskId: string): string | undefined;
}

/** True when `taskId` is `ancestorId` or below it: the delegation tools act only on their own subtree. */
export function isInSubtree(scope: DelegationScope, taskId: string): boolean {
  let current = scope.taskManager.get(taskId);
  while (current) {
    if (current.parentId === scope.parentTaskId) return true;
    if (current.parentId === null) return false;
    current = scope.taskManager.get(current.parentId);
  }
  return false;
}
