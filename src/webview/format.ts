/** Compact numbers and durations for narrow sidebar rows. */
import { isTerminal } from '../engine/tasks/types.js';
import { type ProtocolTask } from '../shared/protocol.js';

/** `950`, `1.2k`, `12.3k`, `123k`, `1.2M`: at most four characters plus the unit. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(Math.max(0, Math.round(count)));
  if (count < 1_000_000) return withUnit(count / 1000, 'k');
  return withUnit(count / 1_000_000, 'M');
}

function withUnit(value: number, unit: string): string {
  // One decimal below 100 (12.3k), none above (123k); a trailing .0 is dropped (12k).
  const text = value < 100 ? (Math.floor(value * 10) / 10).toFixed(1) : String(Math.floor(value));
  return `${text.replace(/\.0$/, '')}${unit}`;
}

/** `0s`, `42s`, `3m 05s`, `1h 02m`. */
export function formatElapsed(milliseconds: number): string {
  const totalSeconds = Math.max(0, Math.floor(milliseconds / 1000));
  if (totalSeconds < 60) return `${totalSeconds}s`;
  const totalMinutes = Math.floor(totalSeconds / 60);
  if (totalMinutes < 60) return `${totalMinutes}m ${pad(totalSeconds % 60)}s`;
  return `${Math.floor(totalMinutes / 60)}h ${pad(totalMinutes % 60)}m`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * How long a task has run: until now while running, until it ended otherwise. Undefined for a task that
 * never started (queued, or stopped while queued). `now` is on the host's clock.
 */
export function taskElapsed(task: ProtocolTask, now: number): number | undefined {
  if (task.startedAt === undefined) return undefined;
  const end = isTerminal(task.status) ? (task.endedAt ?? now) : now;
  return Math.max(0, end - task.startedAt);
}

export function formatTaskElapsed(task: ProtocolTask, now: number): string {
  const elapsed = taskElapsed(task, now);
  return elapsed === undefined ? '' : formatElapsed(elapsed);
}

/** The tokens a row shows: the whole subtree's input plus output. */
export function treeTokens(task: ProtocolTask): number {
  return task.treeUsage.inputTokens + task.treeUsage.outputTokens;
}

/** `12,345`. By hand: `toLocaleString` goes through Intl and is slow enough to show in row updates. */
export function formatCount(count: number): string {
  return String(Math.round(count)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
