/** Converts between live task records and their stored form. */
import { type StopReason, errorMessage } from '../errors.js';
import type { PersistedHistory, PersistedTask, TaskStore } from './task-store.js';
import { type TaskRecord, alreadyEnded, partialOutputOf, snapshotOf, statusOf, totalTokens } from './task-record.js';
import { type TaskOutcome, isInterruption } from './task-lifecycle.js';
import { type TaskSnapshot, type TaskStatus, isTerminal } from './types.js';
import { frozenCopy } from '../util/frozen-copy.js';

export function persistedTaskOf(record: TaskRecord): PersistedTask {
  const persisted: PersistedTask = {
    task: snapshotOf(record),
    transcript: [...record.transcript],
    droppedTranscriptEntries: record.droppedTranscriptEntries,
  };
  const partialOutput = isTerminal(statusOf(record)) ? undefined : partialOutputOf(record);
  if (partialOutput !== undefined) persisted.partialOutput = partialOutput;
  return persisted;
}

/**
 * A stored task as an ended record. One that was still queued or running when it was saved (the previous
 * session ended without closing the manager: a crash, a killed window) becomes `interrupted` (outcome
 * `stopped`, reason `interrupted`), keeping its partial output; its end time is `now`, when the
 * interruption was found. A stored `interrupted` task is a stop too, with its stored reason; history
 * written before that status existed says `stopped` with reason `shutdown` or `interrupted`, which
 * `statusOf` reads as `interrupted` all the same.
 */
export function recordFromPersisted(persisted: PersistedTask, now: number, maxTranscriptEntries: number): TaskRecord {
  const stored = persisted.task;
  const interrupted = !isTerminal(stored.status);
  const transcript = persisted.transcript.slice(-maxTranscriptEntries);
  const record: TaskRecord = {
    id: stored.id,
    parentId: stored.parentId,
    rootId: stored.rootId,
    depth: stored.depth,
    role: stored.role,
    description: stored.description,
    prompt: stored.prompt,
    ...(stored.ancestorTasks?.length ? { ancestorTasks: Object.freeze([...stored.ancestorTasks]) } : {}),
    model: stored.model,
    background: stored.background,
    phase: 'ended',
    outcome: interrupted ? 'stopped' : outcomeOf(stored.status),
    createdAt: stored.createdAt,
    startedAt: stored.startedAt,
    endedAt: interrupted ? now : stored.endedAt,
    output: interrupted ? (stored.output ?? persisted.partialOutput) : stored.output,
    error: stored.error,
    stopReason: interrupted ? { kind: 'interrupted' } : storedStopReason(stored),
    usage: frozenCopy(stored.usage),
    treeUsage: frozenCopy(stored.treeUsage),
    treeSpend: totalTokens(stored.treeUsage),
    maxTokens: stored.budgetTokens,
    cost: frozenCopy(stored.cost ?? unknownCost(stored.usage)),
    treeCost: frozenCopy(stored.treeCost ?? unknownCost(stored.treeUsage)),
    treeSpendUsd: stored.treeCost?.usd ?? 0,
    ...(stored.usageByModel !== undefined ? { usageByModel: stored.usageByModel } : {}),
    ...(stored.todos !== undefined ? { todos: stored.todos } : {}),
    maxUsd: stored.budgetUsd,
    transcript,
    transcriptLength: Math.max(stored.transcriptLength, transcript.length),
    droppedTranscriptEntries: 0,
    streamingText: '',
    lastText: '',
    childIds: [],
    holdsSlot: false,
    openWaits: 0,
    userWaits: 0,
    waitsOnEnd: [],
    end: alreadyEnded,
  };
  record.droppedTranscriptEntries = record.transcriptLength - transcript.length;
  return record;
}

/**
 * The store's history as records, skipping ids already in use (each with a warning). Undefined when the
 * store could not be read (also warned). `interrupted`: some tasks were queued or running when saved.
 */
export async function readHistory(
  store: TaskStore,
  inUse: (id: string) => boolean,
  now: number,
  maxTranscriptEntries: number,
  warn: (message: string, error?: unknown) => void,
): Promise<{ records: TaskRecord[]; interrupted: boolean } | undefined> {
  let history: PersistedHistory;
  try {
    history = await store.load();
  } catch (error) {
    warn(`could not load task history: ${errorMessage(error)}`, error);
    return undefined;
  }
  const records: TaskRecord[] = [];
  const ids = new Set<string>();
  for (const persisted of history.tasks) {
    if (inUse(persisted.task.id) || ids.has(persisted.task.id)) {
      warn(`stored task ${persisted.task.id} skipped: that id is already in use`);
      continue;
    }
    ids.add(persisted.task.id);
    records.push(recordFromPersisted(persisted, now, maxTranscriptEntries));
  }
  return { records, interrupted: history.tasks.some((persisted) => !isTerminal(persisted.task.status)) };
}

/** The outcome of a stored task that had ended: an interruption is a stop whose reason tells it apart. */
function outcomeOf(status: TaskStatus): TaskOutcome {
  return status === 'interrupted' ? 'stopped' : (status as TaskOutcome);
}

/**
 * The stored stop reason; an `interrupted` task saved without one that says so (a hand-edited file) gets
 * `interrupted`, so it loads with the status it was saved with.
 */
function storedStopReason(stored: TaskSnapshot): StopReason | undefined {
  if (stored.status !== 'interrupted') return stored.stopReason;
  return stored.stopReason !== undefined && isInterruption(stored.stopReason) ? stored.stopReason : { kind: 'interrupted' };
}

/** History saved before costs were kept: its tokens had no price on record. */
function unknownCost(usage: { inputTokens: number; outputTokens: number }) {
  return { usd: 0, unpricedTokens: totalTokens(usage) };
}
