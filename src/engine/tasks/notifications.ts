/**
 * Notices of background tasks that ended, kept for the parent to learn on its next turn (the agent loop's
 * `takeNotices`). A caller that waited for a task (foreground, or auto before the switch) already has its
 * result, so only tasks that were in the background when they ended leave a notice.
 */
import { type StopReason, describeStopReason } from '../errors.js';
import type { TaskSnapshot } from './types.js';

export interface TaskNotice {
  taskId: string;
  role: string;
  description: string;
  status: 'completed' | 'failed' | 'stopped' | 'interrupted';
  /** The output, cut to the manager's `noticeOutputChars`; the full text stays in the task's snapshot. */
  output: string;
  /** True when `output` was cut short. */
  outputTruncated: boolean;
  error?: string;
  stopReason?: StopReason;
}

export function noticeFor(task: TaskSnapshot, maxOutputChars: number): TaskNotice {
  const fullOutput = task.output ?? '';
  const outputTruncated = fullOutput.length > maxOutputChars;
  const notice: TaskNotice = {
    taskId: task.id,
    role: task.role,
    description: task.description,
    status: task.status as TaskNotice['status'],
    output: outputTruncated ? `${fullOutput.slice(0, maxOutputChars)}…` : fullOutput,
    outputTruncated,
  };
  if (task.error !== undefined) notice.error = task.error;
  if (task.stopReason !== undefined) notice.stopReason = task.stopReason;
  return Object.freeze(notice);
}

/** One line for the model, e.g. `Background task t3 (researcher: "Find usages") completed. Output: …`. */
export function formatNotice(notice: TaskNotice): string {
  const head = `Task ${notice.taskId} (${notice.role}: "${notice.description}")`;
  const how =
    notice.status === 'completed'
      ? 'completed'
      : notice.status === 'failed'
        ? `failed: ${notice.error ?? 'unknown error'}`
        : notice.stopReason
          ? describeStopReason(notice.stopReason)
          : notice.status;
  const output = notice.output === '' ? '' : notice.status === 'completed' ? `\n${notice.output}` : ` Output so far: ${notice.output}`;
  const more = notice.outputTruncated ? ` (cut short; TaskOutput ${notice.taskId} gives the full text)` : '';
  return `${head} ${how}.${output}${more}`;
}
