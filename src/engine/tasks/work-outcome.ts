/** Small rules for reading what work hands back and for deciding how a stop travels down a tree. */
import { type StopReason, errorMessage } from '../errors.js';
import type { TaskWorkResult } from './work.js';

/**
 * Descendants of a user's (or an agent's) stop were stopped because of their parent; budget and shutdown
 * reasons carry on.
 */
export function descendantReason(reason: StopReason, stopperId: string): StopReason {
  return reason.kind === 'user' || reason.kind === 'parent-stopped' || reason.kind === 'stopped-by-agent'
    ? { kind: 'parent-stopped', parentId: stopperId }
    : reason;
}

export function isWorkResult(value: unknown): value is TaskWorkResult {
  if (typeof value !== 'object' || value === null) return false;
  const result = value as Partial<TaskWorkResult>;
  return (result.status === 'completed' || result.status === 'failed') && typeof result.output === 'string';
}

/** The output of whatever the work returned, when it is a non-empty string. */
export function outputOf(result: unknown): string | undefined {
  const output = (result as { output?: unknown } | undefined)?.output;
  return typeof output === 'string' && output !== '' ? output : undefined;
}

/** Usage numbers from work are trusted only as far as being finite and positive; anything else counts 0. */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** What a task's work function did: returned something, or threw. */
export type WorkOutcome = { threw: false; result: unknown } | { threw: true; error: unknown };

/** How a task that was not stopped ends, by what its work did: its outcome, and the output and error to keep. */
export function judgeWork(outcome: WorkOutcome): { outcome: 'completed' | 'failed'; output?: string; error?: string } {
  if (outcome.threw) return { outcome: 'failed', error: errorMessage(outcome.error) };
  const result = outcome.result;
  if (!isWorkResult(result)) return { outcome: 'failed', error: 'the task work returned no valid result ({ status, output })' };
  if (result.status === 'completed') return { outcome: 'completed', output: result.output };
  return {
    outcome: 'failed',
    error: result.error || 'the task work reported a failure without a reason',
    ...(result.output ? { output: result.output } : {}),
  };
}
