/**
 * The manager's live, mutable record of one task, and the frozen snapshots made from it. Nothing outside
 * the manager ever sees a record: events, `get` and `list` hand out snapshots.
 */
import { setMaxListeners } from 'node:events';
import type { TranscriptEntry } from '../agent/types.js';
import type { StopReason } from '../errors.js';
import { type Cost, zeroCost } from '../model/cost-schema.js';
import { type Usage, zeroUsage } from '../model/types.js';
import { type Deferred, createDeferred } from '../util/deferred.js';
import { frozenCopy } from '../util/frozen-copy.js';
import type { PausableTimer } from './pausable-timer.js';
import { type TaskOutcome, type TaskPhase, statusFor } from './task-lifecycle.js';
import type { TaskSnapshot, TaskStatus } from './types.js';
import type { StartTaskOptions, StartTaskResult, TaskWork } from './work.js';
import type { UsageByModel } from './usage-by-model.js';
import type { TodoItem } from './todo-item.js';
import { shareEqualSpending } from './shared-spending.js';

export interface TaskRecord {
  readonly id: string;
  readonly parentId: string | null;
  readonly rootId: string;
  readonly depth: number;
  readonly role: string;
  readonly description: string;
  readonly prompt: string;
  readonly ancestorTasks?: readonly string[];
  model?: string;
  /** Its agent's todo list (`TaskWorkContext.setTodos`), frozen, replaced whole on each write. */
  todos?: readonly TodoItem[];
  background: boolean;
  /** Started as a follow-up or a revision under an ended task (StartTaskOptions.followUp). */
  followUp?: boolean;
  /** Where the task is in its lifecycle; changed only through the manager's `transition` (task-lifecycle.ts). */
  phase: TaskPhase;
  /** Decided when the task completes, fails or is stopped; its status from then on. */
  outcome?: TaskOutcome;
  readonly createdAt: number;
  startedAt?: number;
  endedAt?: number;
  output?: string;
  error?: string;
  stopReason?: StopReason;
  /**
   * Usage and cost are frozen values, replaced (never changed) as the task spends: a snapshot shares them
   * instead of copying four objects every time one is taken (B2 in docs/performance.md).
   */
  usage: Readonly<Usage>;
  /** Frozen once the task has ended, like the rest of its snapshot. */
  treeUsage: Readonly<Usage>;
  /** Tokens (input + output) spent by this task's tree, still counted after it ended: budgets use this. */
  treeSpend: number;
  /** Set at the start; only ever tightened after (`TaskWorkContext.limitTreeTokens`). */
  maxTokens?: number;
  /** This task's own cost; its tree's (frozen once it has ended, as `treeUsage`). */
  cost: Readonly<Cost>;
  treeCost: Readonly<Cost>;
  /** This task's usage and cost by the model that spent it; undefined until it has spent any. */
  usageByModel?: UsageByModel;
  /** How full its context window is (frozen, replaced at each request); undefined before its first request. */
  context?: Readonly<{ usedTokens: number; windowTokens?: number }>;
  /** Dollars spent by this task's tree, still counted after it ended: money budgets use this. */
  treeSpendUsd: number;
  readonly maxUsd?: number;
  /** The most recent entries, at most `maxTranscriptEntries`; none once they are in the archive. */
  transcript: TranscriptEntry[];
  /**
   * True once the task has ended and its transcript is kept by the transcript archive (the run log) and
   * no longer here: `readTranscript` reads it back from there (transcript-archiving.ts).
   */
  transcriptInArchive?: boolean;
  /** Entries ever recorded (the `index` of the next `task-transcript`). */
  transcriptLength: number;
  /** Oldest entries dropped to keep the cap. */
  droppedTranscriptEntries: number;
  /** Text streamed since the last `text` transcript entry. */
  streamingText: string;
  /** The last `text` transcript entry. */
  lastText: string;
  readonly childIds: string[];
  /** Absent for tasks loaded from history, and let go once the task has ended (it holds the agent's closure). */
  work?: TaskWork;
  /** Let go once the task has ended too: an ended task is never stopped (work still running keeps its signal). */
  controller?: AbortController;
  /** True while it holds one of the manager's concurrency slots. */
  holdsSlot: boolean;
  /** Waits its work has open (foreground children, background children, the user); > 0 while `waiting`. */
  openWaits: number;
  /** Of those, waits for the user (an answer, a message): while there is one, its status is `waiting`. */
  userWaits: number;
  /** True while its question to the user waits behind another task's (user-turns.ts). */
  queuedForUser?: boolean;
  /** Resolves when a `resuming` task gets its slot back (or is stopped). */
  resumed?: Deferred<void>;
  /** Waits of other tasks on this one, closed when it ends (before its slot is given back). */
  readonly waitsOnEnd: OpenWait[];
  /**
   * Resolves at `task-end`; the final snapshot is `snapshotOf(record)` from then on. An ended task's is the
   * shared `alreadyEnded`: a long history holds no promise per task.
   */
  end: Deferred<void>;
  /** A foreground or auto task's caller (`start`), resolved at its end; let go of then. */
  caller?: Deferred<StartTaskResult>;
  /** For an `auto` task: moves it to the background when it runs out; paused while it waits for the user. */
  autoBackgroundTimer?: PausableTimer;
  cancelGraceTimer?: () => void;
}

/** One wait of `waiter`'s work (see `TaskManager.whileWaiting`); closed exactly once. */
export interface OpenWait {
  readonly waiter: TaskRecord;
  /** A wait for the user: the task shows `waiting` while it is open. */
  readonly forUser: boolean;
  closed: boolean;
}

/** A new task, queued, under `parent` (a root when undefined). */
export function createTaskRecord(id: string, options: StartTaskOptions, parent: TaskRecord | undefined, now: number): TaskRecord {
  const controller = new AbortController();
  // A task that fans out to many subagents listens on its signal once per subagent it waits for: that is
  // not a leak, and Node's warning past 10 listeners would only alarm the user. Lifted when its first child
  // starts, not for every task: on Node 20 it costs as much as the rest of a task's creation (B1), and a
  // task without children never comes near 10 listeners.
  if (parent?.controller && parent.childIds.length === 0) setMaxListeners(0, parent.controller.signal);
  return {
    id,
    parentId: parent?.id ?? null,
    rootId: parent?.rootId ?? id,
    depth: parent ? parent.depth + 1 : 0,
    role: options.role,
    description: options.description,
    prompt: options.prompt,
    ...(options.ancestorTasks?.length ? { ancestorTasks: Object.freeze([...options.ancestorTasks]) } : {}),
    background: options.mode === 'background',
    ...(options.followUp ? { followUp: true } : {}),
    phase: 'queued',
    createdAt: now,
    usage: zeroUsage,
    treeUsage: zeroUsage,
    treeSpend: 0,
    maxTokens: options.maxTokens,
    cost: zeroCost,
    treeCost: zeroCost,
    treeSpendUsd: 0,
    maxUsd: options.maxUsd,
    transcript: [],
    transcriptLength: 0,
    droppedTranscriptEntries: 0,
    streamingText: '',
    lastText: '',
    childIds: [],
    work: options.work,
    controller,
    holdsSlot: false,
    openWaits: 0,
    userWaits: 0,
    waitsOnEnd: [],
    end: createDeferred(),
  };
}

/** The `end` of every task that has ended (see `TaskRecord.end`). */
export const alreadyEnded: Deferred<void> = Object.freeze({
  promise: Promise.resolve(),
  settled: true,
  resolve: () => undefined,
  reject: () => undefined,
});

/**
 * The status users see (snapshots, events): `waiting` while a task's work waits for the user, and
 * `interrupted` for a task stopped because the session ended (see `statusFor`).
 */
export function statusOf(record: TaskRecord): TaskStatus {
  if (record.phase === 'waiting' && record.userWaits > 0) return 'waiting';
  return statusFor(record.phase, record.outcome, record.stopReason);
}

/** True once `task-end` was emitted: from then on nothing about the task changes. */
export function hasEnded(record: TaskRecord): boolean {
  return record.phase === 'ended';
}

/**
 * An ended task is history from here on: what only its running work needed goes (the agent's closure, its
 * signal, its timers, its streamed text, its `end`, already resolved), so a long history costs its text
 * alone (B6 in docs/performance.md).
 */
export function letGoOfWork(record: TaskRecord): void {
  record.work = undefined;
  record.controller = undefined;
  record.autoBackgroundTimer = undefined;
  record.cancelGraceTimer = undefined;
  record.caller = undefined;
  record.streamingText = '';
  record.end = alreadyEnded;
  shareEqualSpending(record);
}

/** The partial output of a task that is stopped or fails without an answer: its last text. */
export function partialOutputOf(record: TaskRecord): string | undefined {
  const text = record.streamingText !== '' ? record.streamingText : record.lastText;
  return text === '' ? undefined : text;
}

/** Stores an entry, dropping the oldest beyond `cap`; returns the entry's index. */
export function addTranscriptEntry(record: TaskRecord, entry: TranscriptEntry, cap: number): number {
  const index = record.transcriptLength++;
  record.transcript.push(entry);
  if (record.transcript.length > cap) {
    record.transcript.splice(0, record.transcript.length - cap);
    record.droppedTranscriptEntries = record.transcriptLength - record.transcript.length;
  }
  if (entry.type === 'text') {
    record.lastText = entry.text;
    record.streamingText = '';
  }
  return index;
}

/** The stored transcript, led by a notice when older entries were dropped to keep the cap. Empty once it is in the archive. */
export function transcriptOf(record: TaskRecord): TranscriptEntry[] {
  if (record.transcriptInArchive) return [];
  return transcriptWithNotice(record.transcript, record.droppedTranscriptEntries);
}

/** `entries`, led by a notice when `dropped` older ones were not kept. */
export function transcriptWithNotice(entries: readonly TranscriptEntry[], dropped: number): TranscriptEntry[] {
  if (dropped === 0) return [...entries];
  const notice: TranscriptEntry = Object.freeze({
    type: 'notice',
    text: `${dropped} earlier transcript entries were not kept (the limit is ${entries.length}).`,
  });
  return [notice, ...entries];
}

export function totalTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens;
}

/** A frozen copy: consumers can keep it forever without seeing later changes. */
export function snapshotOf(record: TaskRecord): TaskSnapshot {
  const snapshot: TaskSnapshot = {
    id: record.id,
    parentId: record.parentId,
    rootId: record.rootId,
    depth: record.depth,
    role: record.role,
    description: record.description,
    prompt: record.prompt,
    background: record.background,
    status: statusOf(record),
    createdAt: record.createdAt,
    usage: record.usage,
    treeUsage: record.treeUsage,
    cost: record.cost,
    treeCost: record.treeCost,
    transcriptLength: record.transcriptLength,
  };
  // Optional fields are left out rather than set to undefined, so snapshots serialize the same either way.
  if (record.model !== undefined) snapshot.model = record.model;
  if (record.startedAt !== undefined) snapshot.startedAt = record.startedAt;
  if (record.endedAt !== undefined) snapshot.endedAt = record.endedAt;
  if (record.output !== undefined) snapshot.output = record.output;
  if (record.error !== undefined) snapshot.error = record.error;
  if (record.stopReason !== undefined) snapshot.stopReason = frozenCopy(record.stopReason);
  if (record.maxTokens !== undefined) snapshot.budgetTokens = record.maxTokens;
  if (record.maxUsd !== undefined) snapshot.budgetUsd = record.maxUsd;
  if (record.context !== undefined) snapshot.context = record.context;
  // Frozen when the record was made: shared, never copied.
  if (record.ancestorTasks) snapshot.ancestorTasks = record.ancestorTasks as string[];
  if (record.followUp) snapshot.followUp = true;
  if (record.todos !== undefined) snapshot.todos = record.todos as TodoItem[];
  // Only a task that ran on more than one model (a failover): for the others, `model` and `cost` say it all.
  if (record.usageByModel !== undefined && record.usageByModel.length > 1) snapshot.usageByModel = record.usageByModel;
  if (record.queuedForUser && snapshot.status === 'waiting') snapshot.queuedForUser = true;
  return Object.freeze(snapshot);
}
