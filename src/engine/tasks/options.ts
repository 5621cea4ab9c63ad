/** The task manager's options, their defaults, and the checks that turn bad input into a clear error. */
import { type Clock, systemClock } from '../clock.js';
import { defaultLimits, defaults } from '../limits.js';
import { createSequentialIds } from './ids.js';
import { TaskError } from './task-error.js';
import type { ModelPrice } from '../model/model-prices.js';
import type { TaskStore } from './task-store.js';
import type { StartTaskOptions } from './work.js';

export interface TaskManagerOptions {
  /**
   * Tasks doing work at once, each in a slot of its own; more wait in a queue. A task whose work only
   * waits (on a foreground or auto subtask, on background subtasks through `wait`, on anything through
   * `waitFor`) gives its slot back meanwhile, so nested delegation never deadlocks, even at 1. The queue
   * serves tasks resuming after a wait first, then subtasks of runs under way, then new runs, each first
   * come first served. Default: `defaultLimits.maxConcurrentTasks` (limits.ts).
   */
  maxConcurrent?: number;
  /**
   * Tasks one run (a root task and everything below it) may start in all, the root included: a runaway
   * agent that keeps delegating gets an error instead of filling the machine. Default: `defaults.maxTasksPerRun` (200).
   */
  maxTasksPerRun?: number;
  /** For `auto` tasks: how long the caller waits before the task moves to the background, unless `start` says. Default: `defaults.autoBackgroundMs` (limits.ts). */
  autoBackgroundMs?: number;
  /**
   * How long a stopped task's work gets to return (and hand over its partial output) before the task ends
   * without it. `stop` and a waiting caller never wait longer than this for hung work. Default: `defaults.stopGraceMs` (2,000 ms).
   */
  stopGraceMs?: number;
  /** Default: `systemClock`; tests pass a `ManualClock`. */
  clock?: Clock;
  /**
   * Task ids. Default: `t1`, `t2`, … per manager; ids already taken (loaded history) are skipped, so any
   * generator that eventually returns fresh ids works.
   */
  generateId?: () => string;
  /** Where history is saved (on task start and end, clear, close). Default: none, history lives in memory. */
  store?: TaskStore;
  /** Transcript entries kept per task (oldest dropped first, with a notice). Default: `defaults.maxTranscriptEntries` (500). */
  maxTranscriptEntries?: number;
  /** Output characters a background task's notice carries. Default: `defaults.noticeOutputChars` (1,000). */
  noticeOutputChars?: number;
  /** Hears about problems that must not break the manager: a failed save, a throwing listener. Default: `console.warn`. */
  onWarning?: (message: string, cause?: unknown) => void;
  /** The price of a model (`provider/model`), for tasks' cost and money budgets. Default: none known (costs are "unknown"). */
  priceOf?: (model: string | undefined) => ModelPrice | undefined;
}

export interface ResolvedTaskManagerOptions {
  maxConcurrent: number;
  maxTasksPerRun: number;
  autoBackgroundMs: number;
  stopGraceMs: number;
  clock: Clock;
  generateId: () => string;
  store: TaskStore | undefined;
  maxTranscriptEntries: number;
  noticeOutputChars: number;
  onWarning: (message: string, cause?: unknown) => void;
  priceOf: (model: string | undefined) => ModelPrice | undefined;
}

export function resolveOptions(options: TaskManagerOptions): ResolvedTaskManagerOptions {
  return {
    maxConcurrent: positiveInteger(options.maxConcurrent ?? defaultLimits.maxConcurrentTasks, 'maxConcurrent'),
    maxTasksPerRun: positiveInteger(options.maxTasksPerRun ?? defaults.maxTasksPerRun, 'maxTasksPerRun'),
    autoBackgroundMs: duration(options.autoBackgroundMs ?? defaults.autoBackgroundMs, 'autoBackgroundMs'),
    stopGraceMs: duration(options.stopGraceMs ?? defaults.stopGraceMs, 'stopGraceMs'),
    clock: options.clock ?? systemClock,
    generateId: options.generateId ?? createSequentialIds(),
    store: options.store,
    maxTranscriptEntries: positiveInteger(options.maxTranscriptEntries ?? defaults.maxTranscriptEntries, 'maxTranscriptEntries'),
    noticeOutputChars: positiveInteger(options.noticeOutputChars ?? defaults.noticeOutputChars, 'noticeOutputChars'),
    onWarning: options.onWarning ?? ((message, cause) => console.warn(`Agent Team tasks: ${message}`, cause ?? '')),
    priceOf: options.priceOf ?? (() => undefined),
  };
}

/** Checks what `start` is given; throws a `TaskError` naming the first bad field. */
export function validateStartOptions(options: StartTaskOptions): void {
  if (typeof options !== 'object' || options === null) invalid('start() needs an options object.');
  for (const field of ['role', 'description'] as const) {
    if (typeof options[field] !== 'string' || options[field].trim() === '') invalid(`start() needs a non-empty ${field}.`);
  }
  if (typeof options.prompt !== 'string') invalid('start() needs a prompt (a string).');
  if (options.mode !== 'foreground' && options.mode !== 'background' && options.mode !== 'auto') {
    invalid(`start() mode must be foreground, background or auto, not ${String(options.mode)}.`);
  }
  if (typeof options.work !== 'function') invalid('start() needs a work function.');
  if (options.autoBackgroundMs !== undefined) duration(options.autoBackgroundMs, 'autoBackgroundMs');
  if (options.maxTokens !== undefined && !(Number.isFinite(options.maxTokens) && options.maxTokens > 0)) {
    invalid(`maxTokens must be a positive number of tokens, not ${options.maxTokens}.`);
  }
  if (options.maxUsd !== undefined && !(Number.isFinite(options.maxUsd) && options.maxUsd > 0)) {
    invalid(`maxUsd must be a positive number of US dollars, not ${options.maxUsd}.`);
  }
}

/** A timeout in milliseconds: zero or more; `Infinity` means never. */
export function duration(value: number, name: string): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    invalid(`${name} must be zero or more milliseconds (Infinity for never), not ${String(value)}.`);
  }
  return value;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) invalid(`${name} must be a whole number of at least 1, not ${String(value)}.`);
  return value;
}

function invalid(message: string): never {
  throw new TaskError('invalid-options', message);
}
