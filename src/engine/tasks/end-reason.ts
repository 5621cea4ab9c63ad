import { describeStopReason } from '../errors.js';
import type { TaskSnapshot } from './types.js';

/**
 * Why a task ended without completing, in words: its error, or who stopped it and why. Undefined for a
 * completed task or one still at work. The one wording the planner, the workflows, the terminal and the
 * sidebar show.
 */
export function endReason(task: Pick<TaskSnapshot, 'status' | 'error' | 'stopReason'>): string | undefined {
  if (task.status === 'failed') return task.error ?? 'failed';
  if (task.status === 'stopped') return task.stopReason ? describeStopReason(task.stopReason) : 'stopped';
  return undefined;
}
