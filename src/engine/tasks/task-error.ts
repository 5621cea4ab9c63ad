import { AgentTeamError } from '../errors.js';

export type TaskErrorKind =
  /** No task has this id (it never existed, or its history was cleared). */
  | 'unknown-task'
  /** The manager was closed; nothing new starts. */
  | 'closed'
  /** A child was asked for under a task that has already ended. */
  | 'parent-ended'
  /** The options passed in are not usable (the message says which one and why). */
  | 'invalid-options'
  /** The task history could not be saved. */
  | 'store'
  /** A run reached one of its limits (for example the most subagents one run may start). */
  | 'limit'
  /** A bug in the task manager itself: a lifecycle move its state machine does not allow. */
  | 'illegal-transition';

/** A task-manager call that cannot be carried out; the message says what to do instead. */
export class TaskError extends AgentTeamError {
  override readonly name: string = 'TaskError';
  readonly code: string;

  constructor(
    readonly kind: TaskErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = `task-${kind}`;
  }
}
