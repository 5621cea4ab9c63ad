/**
 * What the task manager is handed: work that takes an `AbortSignal`. The manager knows nothing about
 * agents; the team layer wraps an agent run in a `TaskWork`.
 */
import type { TranscriptEntry } from '../agent/types.js';
import type { ModelMessage, Usage } from '../model/types.js';
import type { TaskSnapshot } from './types.js';
import type { TodoItem } from './todo-item.js';

/** What a task's work is given. Calls made after the task has ended are ignored. */
export interface TaskWorkContext {
  readonly taskId: string;
  /**
   * Aborted when the task is stopped (by the user, its parent, its budget, shutdown), with a `StopReason`
   * (errors.ts) as `signal.reason`; read it with `stopReasonOf(signal)`.
   */
  readonly signal: AbortSignal;
  /**
   * Adds model usage to this task and to every ancestor's `treeUsage`, and enforces token budgets: a
   * report that takes a tree over its `maxTokens` stops that tree. Still counted after a stop until the
   * task has ended, since tokens an aborted request already used are real spend.
   */
  reportUsage(delta: Usage): void;
  /**
   * Tightens this task's token budget (its tree's, like `StartTaskOptions.maxTokens`) to `maxTokens`, for
   * work that brings its own limit (a role file's `maxTokens`). A limit looser than the one set changes
   * nothing; a tree already past the new one is stopped at once. Optional: contexts made by tests leave it out.
   */
  limitTreeTokens?(maxTokens: number): void;
  /** Records a finished step (emits `task-transcript`). A `text` entry also becomes the partial output. */
  appendTranscript(entry: TranscriptEntry): void;
  /**
   * Streams live text (emits `task-text-delta`; not stored per delta). Accumulated since the last `text`
   * transcript entry, so a stopped task whose work never returns still has its partial output.
   */
  appendText(delta: string): void;
  /** Names the model doing the work, e.g. `anthropic/claude-sonnet-4-5` (shown in the snapshot). */
  setModel(model: string): void;
  /**
   * Replaces the task's todo list (`TaskSnapshot.todos`; emits `task-update`). Optional: work that plans
   * nothing, and contexts made by tests, leave it out.
   */
  setTodos?(todos: readonly TodoItem[]): void;
  /**
   * The agent's conversation at a turn boundary (emits `task-conversation`, for the run log). Optional:
   * work that has no conversation, and contexts made by tests, leave it out.
   */
  recordConversation?(messages: readonly ModelMessage[]): void;
  /**
   * How full the agent's context window is (the snapshot's `context`), told just before the turn's usage:
   * the update that usage sends carries it. Optional, as `recordConversation`.
   */
  reportContext?(usedTokens: number, windowTokens: number | undefined): void;
  /** The agent's conversation was compacted (emits `task-compaction`, before the new conversation). Optional. */
  recordCompaction?(compaction: {
    beforeTokens: number;
    afterTokens: number;
    summary: string;
    trigger: 'auto' | 'overflow' | 'manual';
  }): void;
  /**
   * Waits for `promise` without holding a concurrency slot: while the work only waits (on other tasks, on
   * the user), the slot goes to work that can run. When `promise` settles, resolves (or rejects) with it
   * once the task has a slot again; a stop rejects it at once with a `StoppedError`. Waiting on a
   * foreground or auto subtask through `start`, or on a task through `wait` with `waiterId`, does this
   * already.
   */
  waitFor<T>(waitedFor: Promise<T> | (() => Promise<T>)): Promise<T>;
  /**
   * `waitFor` for the user (an answer to a question, the next chat message): the task's status is
   * `waiting` meanwhile, and the time does not count toward its auto-background limit. Pass a function to
   * start what is waited for (put the question) only once the task shows `waiting`.
   */
  waitForUser<T>(waitedFor: Promise<T> | (() => Promise<T>)): Promise<T>;
}

export interface TaskWorkResult {
  status: 'completed' | 'failed';
  /** The answer; for a failed or stopped task, whatever partial output the work has. */
  output: string;
  /** Why it failed, for `failed`. */
  error?: string;
}

/**
 * The work itself. It should return soon after its signal aborts (its output then becomes the partial
 * output); throwing makes the task `failed` with the error's message, unless it was already stopped.
 */
export type TaskWork = (context: TaskWorkContext) => Promise<TaskWorkResult>;

/**
 * - `foreground`: `start` resolves when the task ends.
 * - `background`: `start` resolves at once (the task queued or running); the parent learns of the end
 *   through `takeNotifications`.
 * - `auto`: foreground until `autoBackgroundMs`, then `start` resolves with `backgrounded: true` and the
 *   work keeps running in the background.
 */
export type TaskMode = 'foreground' | 'background' | 'auto';

export interface StartTaskOptions {
  /** The task this one works for; omitted or null for a root task (a delegation from the user). */
  parentId?: string | null;
  /**
   * A follow-up: a new turn of a run that has ended, started under its root although the root has ended
   * (the root's own record stays as it ended). `parentId` must name a root. Default false.
   */
  followUp?: boolean;
  role: string;
  /** A 3-5 word title. */
  description: string;
  prompt: string;
  /** The tasks this one is part of, outermost first (ancestor-tasks.ts's `chainBelow`). Default: none. */
  ancestorTasks?: readonly string[];
  mode: TaskMode;
  /**
   * For `auto`: how long the caller waits (counted from `start`, queue time included) before the task
   * moves to the background. Default: the manager's `autoBackgroundMs` (120,000). `Infinity`: never.
   */
  autoBackgroundMs?: number;
  /**
   * Token budget (input + output) for this task's whole tree. When the tree's usage exceeds it, the tree is
   * stopped: this task ends `failed` with error `budget exceeded: …`, its descendants `stopped` with reason
   * `budget`, partial output kept. Default: no budget.
   */
  maxTokens?: number;
  /**
   * Money budget (US dollars) for this task's whole tree, at the models' prices (`priceOf`); passing it
   * stops the tree as `maxTokens` does. Tokens of a model with no price count nothing against it. Default: none.
   */
  maxUsd?: number;
  work: TaskWork;
}

export interface StartTaskResult {
  /** The final snapshot for a task the caller waited out; the current one for a backgrounded task. */
  task: TaskSnapshot;
  /** True when the caller is no longer waiting: started in the background, or auto-backgrounded. */
  backgrounded: boolean;
}
