/**
 * The context a task's work is handed. Every call checks the task first: once its status is terminal,
 * text, transcript entries and model changes are dropped (usage still reaches the manager, which counts
 * it until the task has ended). One exception: a stopped task's work may still add notices while it winds
 * down (`stopping`, until its `task-end`), so what it could not undo (a remote task that refused to be
 * cancelled) is said in its transcript.
 */
import type { TranscriptEntry } from '../agent/types.js';
import type { ModelMessage, Usage } from '../model/types.js';
import type { TodoItem } from './todo-item.js';
import { raceWithSignal } from '../abort.js';
import { type TaskRecord, addTranscriptEntry, statusOf } from './task-record.js';
import { type TaskEvent, isTerminal } from './types.js';
import type { TaskWorkContext } from './work.js';

export interface WorkContextHost {
  maxTranscriptEntries: number;
  /** One copy of tool results that arrive again (the same file read by task after task). */
  intern(text: string): string;
  emit(event: TaskEvent): void;
  emitUpdate(record: TaskRecord): void;
  reportUsage(record: TaskRecord, delta: Usage): void;
  limitTreeTokens(record: TaskRecord, maxTokens: number): void;
  whileWaiting<T>(record: TaskRecord, waitedFor: () => Promise<T>, forUser: boolean): Promise<T>;
  /** Runs `ask` once no other task's question to the user is open (user-turns.ts); `onQueued` while it waits for that. */
  inUserTurn<T>(ask: () => Promise<T>, signal: AbortSignal, onQueued: (queued: boolean) => void): Promise<T>;
}

function started<T>(waitedFor: Promise<T> | (() => Promise<T>)): Promise<T> {
  return typeof waitedFor === 'function' ? waitedFor() : waitedFor;
}

export function createWorkContext(record: TaskRecord, host: WorkContextHost): TaskWorkContext {
  // Its question waits behind another task's, or its turn came: the snapshot says so ("queued for you").
  const markQueued = (queued: boolean) => {
    record.queuedForUser = queued;
    host.emitUpdate(record);
  };
  const signal = (record.controller as AbortController).signal;
  return Object.freeze({
    taskId: record.id,
    signal,
    reportUsage: (delta: Usage) => host.reportUsage(record, delta),
    limitTreeTokens: (maxTokens: number) => host.limitTreeTokens(record, maxTokens),
    appendTranscript: (entry: TranscriptEntry) => {
      if (typeof entry !== 'object' || entry === null) return;
      if (isTerminal(statusOf(record)) && !(record.phase === 'stopping' && entry.type === 'notice')) return;
      // A frozen copy: the work may reuse its object, and listeners must not be able to change history.
      // One copy (not a spread and then a copy of it): a tool result's output is swapped in on the copy.
      const copy = Object.assign({}, entry);
      if (copy.type === 'tool-result') copy.output = host.intern(copy.output);
      const frozen = Object.freeze(copy) as TranscriptEntry;
      const index = addTranscriptEntry(record, frozen, host.maxTranscriptEntries);
      host.emit({ type: 'task-transcript', taskId: record.id, index, entry: frozen });
    },
    appendText: (delta: string) => {
      if (isTerminal(statusOf(record)) || typeof delta !== 'string' || delta === '') return;
      record.streamingText += delta;
      host.emit({ type: 'task-text-delta', taskId: record.id, text: delta });
    },
    recordConversation: (messages: readonly ModelMessage[]) => {
      if (isTerminal(statusOf(record))) return;
      host.emit({ type: 'task-conversation', taskId: record.id, messages });
    },
    reportContext: (usedTokens: number, windowTokens: number | undefined) => {
      if (isTerminal(statusOf(record))) return;
      // No update of its own: the usage reported right after the figure carries it (B18: the meter costs no event).
      record.context = Object.freeze(windowTokens === undefined ? { usedTokens } : { usedTokens, windowTokens });
    },
    recordCompaction: (compaction: Parameters<NonNullable<TaskWorkContext['recordCompaction']>>[0]) => {
      if (isTerminal(statusOf(record))) return;
      host.emit({ type: 'task-compaction', taskId: record.id, ...compaction });
    },
    setModel: (model: string) => {
      if (isTerminal(statusOf(record)) || typeof model !== 'string' || model === record.model) return;
      record.model = model;
      host.emitUpdate(record);
    },
    setTodos: (todos: readonly TodoItem[]) => {
      if (isTerminal(statusOf(record))) return;
      record.todos = Object.freeze(todos.map((todo) => Object.freeze({ ...todo })));
      host.emitUpdate(record);
    },
    // A stop ends the wait at once (with a StoppedError), so the work can hand over its partial output.
    waitFor: <T>(waitedFor: Promise<T> | (() => Promise<T>)) =>
      host.whileWaiting(record, () => raceWithSignal(started(waitedFor), signal), false),
    // The task shows `waiting` at once; its question is put once the user has answered the ones before it.
    waitForUser: <T>(waitedFor: Promise<T> | (() => Promise<T>)) =>
      host.whileWaiting(record, () => host.inUserTurn(() => raceWithSignal(started(waitedFor), signal), signal, markQueued), true),
  });
}
