/** How a task's status and stop reason look and read. */
import { type ProtocolTask } from '../shared/protocol.js';
import { l10n } from './l10n.js';

type TaskStatus = ProtocolTask['status'];

/** The codicon classes per status (the spinning loader for running tasks). */
export const statusIconClasses: Readonly<Record<TaskStatus, string>> = {
  queued: 'codicon-clock',
  running: 'codicon-loading codicon-modifier-spin',
  waiting: 'codicon-question',
  completed: 'codicon-pass',
  failed: 'codicon-error',
  stopped: 'codicon-debug-stop',
  // Paused rather than stopped: the run can go on (Resume).
  interrupted: 'codicon-debug-pause',
};

export function isStoppable(status: TaskStatus): boolean {
  return status === 'running' || status === 'queued' || status === 'waiting';
}

/**
 * A run the user can resume: an interrupted root. A subagent goes on with its run (the engine resumes
 * every interrupted task of a tree together), so its row offers nothing of its own.
 */
export function isResumable(task: Pick<ProtocolTask, 'status' | 'parentId'>): boolean {
  return task.status === 'interrupted' && task.parentId === null;
}

/** `researcher: Find usages`. */
export function taskTitle(task: Pick<ProtocolTask, 'role' | 'description'>): string {
  return `${task.role}: ${task.description}`;
}

/**
 * How the status reads: the status itself, or `waiting, queued for you` for a task whose question waits
 * behind another task's (`queuedForUser`; its `data-status` stays `waiting`, the contract's value).
 */
export function statusText(task: Pick<ProtocolTask, 'status' | 'queuedForUser'>): string {
  return task.queuedForUser === true && task.status === 'waiting' ? `${task.status}, ${queuedForYou}` : task.status;
}

/** What a queued question's task says, in the row, its label and the detail view (the CLI says it too). */
export const queuedForYou = 'queued for you';

/** The row's accessible name: `researcher: Find usages — running` (an em dash with spaces). */
export function taskAriaLabel(task: Pick<ProtocolTask, 'role' | 'description' | 'status' | 'queuedForUser'>): string {
  return `${taskTitle(task)} \u2014 ${statusText(task)}`;
}

/** The Stop button's accessible name, which must begin with "Stop". */
export function stopAriaLabel(task: Pick<ProtocolTask, 'role' | 'description'>): string {
  return l10n.t('Stop {0}', taskTitle(task));
}

/** The Resume button's accessible name, which must begin with "Resume": `Resume run Find usages`. */
export function resumeAriaLabel(task: Pick<ProtocolTask, 'description'>): string {
  return l10n.t('Resume run {0}', task.description);
}
