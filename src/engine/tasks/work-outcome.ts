/** Small rules for reading what work hands back and for deciding how a stop travels down a tree. */
import type { StopReason } from '../errors.js';
import type { TaskWorkResult } from './work.js';

/**
 * Descendants of a user's (or an agent's) stop were stopped because of their parent; budget and shutdown
 * reasons carry on.
 */
export function descendantReason(reason: StopReason, stopperId: string): StopReason {
  return reason.kind === 'user' || reason.kind === 'parent-stopped' || reason.kind === 'stopped-by-agent' ? { kind: 'parent-stopped', parentId: stopperId } : reason;
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
