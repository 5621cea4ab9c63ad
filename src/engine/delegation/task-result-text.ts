/**
 * How a subagent's result reads to the model that delegated it. Only the final answer travels back, never
 * the subagent's transcript: the parent's context stays lean however much work the child did.
 */
import { describeStopReason } from '../errors.js';
import type { TaskSnapshot } from '../tasks/types.js';

/** Output longer than this is cut in tool results, with a note saying so. */
export const defaultMaxResultChars = 30_000;

export function formatTaskResult(task: TaskSnapshot, options: { maxChars?: number; extra?: string; partialOutput?: string } = {}): string {
  const maxChars = options.maxChars ?? defaultMaxResultChars;
  const header = `Task ${task.id} (${task.role}: "${task.description}") ${describeStatus(task)}.`;
  const output = task.output ?? options.partialOutput ?? '';
  const body =
    output.length > maxChars
      ? `${output.slice(0, maxChars)}\n[Output truncated: showing ${maxChars.toLocaleString('en-US')} of ${output.length.toLocaleString('en-US')} characters.]`
      : output;
  // A completed task's answer follows its header directly: every word of framing stays in each later
  // request of the parent (B8 in docs/performance.md). Partial output says what it is.
  const label =
    task.status === 'completed'
      ? undefined
      : task.status === 'running' || task.status === 'queued' || task.status === 'waiting'
        ? 'Output so far'
        : 'Partial output';
  const parts = [header];
  if (body.trim() !== '') parts.push(label ? `${label}:\n${body}` : body);
  if (options.extra) parts.push(options.extra);
  return parts.join('\n\n');
}

export function describeStatus(task: TaskSnapshot): string {
  switch (task.status) {
    case 'queued':
      return 'is queued, waiting for a free slot';
    case 'running':
      return 'is still running';
    case 'waiting':
      return 'is waiting for the user to answer';
    case 'completed':
      return 'completed';
    case 'failed':
      return `failed: ${task.error ?? 'unknown error'}`;
    case 'stopped':
      return task.stopReason ? `was ${describeStopReason(task.stopReason)}` : 'was stopped';
    case 'interrupted':
      return 'was interrupted (the window closed or the process ended) before it finished';
  }
}
