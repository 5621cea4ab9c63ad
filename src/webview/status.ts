/** How a task's status and stop reason look and read. */
import { type ProtocolTask } from '../shared/protocol.js';

type TaskStatus = ProtocolTask['status'];
type StopReason = NonNullable<ProtocolTask['stopReason']>;

/** The codicon classes per status (the spinning loader for running tasks). */
export const statusIconClasses: Readonly<Record<TaskStatus, string>> = {
  queued: 'codicon-clock',
  running: 'codicon-loading codicon-modifier-spin',
  completed: 'codicon-pass',
  failed: 'codicon-error',
  stopped: 'codicon-debug-stop',
};

export function isStoppable(status: TaskStatus): boolean {
  return status === 'running' || status === 'queued';
}

/** `researcher: Find usages`. */
export function taskTitle(task: Pick<ProtocolTask, 'role' | 'description'>): string {
  return `${task.role}: ${task.description}`;
}

/** The row's accessible name: `researcher: Find usages — running` (an em dash with spaces). */
export function taskAriaLabel(task: Pick<ProtocolTask, 'role' | 'description' | 'status'>): string {
  return `${taskTitle(task)} \u2014 ${task.status}`;
}

/** The Stop button's accessible name, which must begin with "Stop". */
export function stopAriaLabel(task: Pick<ProtocolTask, 'role' | 'description'>): string {
  return `Stop ${taskTitle(task)}`;
}

/**
 * Why a task stopped, in the words of the engine's `describeStopReason` (src/engine/errors.ts). Repeated
 * here because the webview bundle imports only types from the engine.
 */
export function describeStop(reason: StopReason): string {
  switch (reason.kind) {
    case 'user':
      return 'stopped by the user';
    case 'parent-stopped':
      return `stopped because its parent task ${reason.parentId} was stopped`;
    case 'stopped-by-agent':
      return `stopped by task ${reason.taskId}, which had started it`;
    case 'budget':
      return `budget exceeded: ${reason.detail}`;
    case 'shutdown':
      return 'stopped because Agent Team shut down';
    case 'interrupted':
      return 'interrupted: it was still running when Agent Team last closed';
  }
}
