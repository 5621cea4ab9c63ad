import { describeStopReason } from '../errors.js';
import type { TaskSnapshot } from './types.js';

/**
 * Why a task ended without completing, in words: its error, who stopped it and why, or what interrupted
 * it (said without the word "interrupted": the status, shown beside it, says that). Undefined for a
 * completed task or one still at work. The one wording the planner, the workflows, the terminal and the
 * sidebar show.
 */
export function endReason(task: Pick<TaskSnapshot, 'status' | 'error' | 'stopReason'>): string | undefined {
  if (task.status === 'failed') return task.error ?? 'failed';
  if (task.status === 'stopped') return task.stopReason ? describeStopReason(task.stopReason) : 'stopped';
  if (task.status === 'interrupted')
    return task.stopReason?.kind === 'shutdown'
      ? 'Agent Team shut down before it finished'
      : 'it was still running when Agent Team last closed';
  return undefined;
}
