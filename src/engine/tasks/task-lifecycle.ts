/**
 * A task's lifecycle as one explicit state machine. Every change of phase in the manager goes through
 * `nextPhase`, which refuses moves the table does not list, so a bug shows up as a loud error at the move
 * that is wrong rather than as a slot lost or a task ended twice much later.
 *
 *   queued ──grant──▶ running ──suspend──▶ waiting ──wake──▶ resuming ──grant──▶ running
 *      │                 │  ▲                 │  ▲               │
 *      │                 │  └───── (slot) ────┘  └──suspend──────┘
 *      │               settle / stop ──▶ ended / stopping ──settle | grace──▶ ended
 *      └──stop──▶ ended (a queued task has no work to wait for)
 *
 * - `running`: holds a concurrency slot and does work (model calls, tools).
 * - `waiting`: its work only waits (on a foreground child, on background children, on the user); it holds
 *   no slot, so the tasks it waits for can run even at a limit of 1.
 * - `resuming`: the wait is over; queued (ahead of new tasks) for a slot before its work goes on.
 * - `stopping`: its outcome is decided (stopped, or failed by its budget) and its signal aborted; the
 *   work gets `stopGraceMs` to return its partial output.
 * - `ended`: `task-end` is out; nothing about the task changes any more.
 */
import type { StopReason } from '../stop-reason.js';
import { TaskError } from './task-error.js';
import type { TaskStatus } from './types.js';

export type TaskPhase = 'queued' | 'running' | 'waiting' | 'resuming' | 'stopping' | 'ended';

export type LifecycleStep =
  /** A concurrency slot was handed to the task. */
  | 'grant'
  /** Its work began to wait and gives its slot back. */
  | 'suspend'
  /** Its last wait is over; it needs a slot again. */
  | 'wake'
  /** Stopped (by the user, its parent, its budget, shutdown). */
  | 'stop'
  /** Its work returned (or threw), or a stopped task's grace ran out: `task-end`. */
  | 'end';

const transitions: Readonly<Record<TaskPhase, Partial<Record<LifecycleStep, TaskPhase>>>> = {
  queued: { grant: 'running', stop: 'ended' },
  running: { suspend: 'waiting', stop: 'stopping', end: 'ended' },
  // Work may return while a wait it started is still open (it did not await it): that ends the task.
  waiting: { wake: 'resuming', stop: 'stopping', end: 'ended' },
  resuming: { grant: 'running', suspend: 'waiting', stop: 'stopping', end: 'ended' },
  stopping: { end: 'ended' },
  ended: {},
};

/** The phase after `step`; throws a `TaskError` (kind `illegal-transition`) for a move the table lacks. */
export function nextPhase(phase: TaskPhase, step: LifecycleStep): TaskPhase {
  const next = transitions[phase][step];
  if (next === undefined) {
    throw new TaskError(
      'illegal-transition',
      `Internal error in the task manager: a task that is ${phase} cannot take the step "${step}".`,
    );
  }
  return next;
}

/** Moves `task` one step; the one way any task changes phase. */
export function transition(task: { phase: TaskPhase }, step: LifecycleStep): void {
  task.phase = nextPhase(task.phase, step);
}

/** True while the task has work that has not been stopped: it may still complete, fail or be stopped. */
export function isActivePhase(phase: TaskPhase): boolean {
  return phase === 'running' || phase === 'waiting' || phase === 'resuming';
}

/**
 * How a task ended (or, while `stopping`, how it will end). A stop is one outcome whoever caused it; the
 * status tells an interruption apart (see `statusFor`), so the manager's stop logic stays one path.
 */
export type TaskOutcome = 'completed' | 'failed' | 'stopped';

/**
 * The public status: the phases users need not tell apart are folded into `running`, and a stop caused
 * by the session ending (`shutdown`: the window closed; `interrupted`: found unfinished in the history
 * after the process died) shows as `interrupted`, the status a run can be resumed from. Children of such
 * a stop keep its reason (work-outcome.ts `descendantReason`), so a whole tree reads as interrupted.
 */
export function statusFor(phase: TaskPhase, outcome: TaskOutcome | undefined, stopReason?: StopReason): TaskStatus {
  if (phase === 'queued') return 'queued';
  if (isActivePhase(phase)) return 'running';
  if (outcome === undefined)
    throw new TaskError('illegal-transition', `Internal error in the task manager: a task ${phase} has no outcome.`);
  if (outcome === 'stopped' && stopReason !== undefined && isInterruption(stopReason)) return 'interrupted';
  return outcome;
}

/** True for the stop reasons that mean the session ended under the task, not that anybody stopped it. */
export function isInterruption(reason: StopReason): boolean {
  return reason.kind === 'shutdown' || reason.kind === 'interrupted';
}
