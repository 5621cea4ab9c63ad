/**
 * Turns the task manager's events into run records as they happen. Only what a run needs again is
 * kept: a task's snapshot when it starts, ends, or changes status, background or model (not on each usage
 * update), every transcript entry, and the conversation at each turn boundary, sent from the last message
 * written on (the list only grows, but its last message may have gained parts), so a record holds the
 * turn's new messages rather than the whole conversation again. Turn boundaries and task ends are when
 * a run's lines go to disk; the root's end is also when its file is fsynced and retention runs.
 */
import type { ModelMessage } from '../model/types.js';
import type { TaskEvent, TaskSnapshot } from '../tasks/types.js';
import type { RunIndex, RunSummary } from './run-index.js';
import type { RunLogWriter } from './run-log-writer.js';
import { safeRunId } from './run-log-records.js';

export interface RunRecorderHost {
  writer: RunLogWriter;
  index: RunIndex;
  now(): number;
  /** Writes the run's held lines (and what else it holds for the run); resolves when written. */
  writeRun(runId: string, options?: { sync?: boolean }): Promise<void>;
  /** The run's root task has ended; `written` resolves when its lines are on disk. */
  rootEnded(runId: string, written: Promise<void>): void;
}

interface OpenTask {
  runId: string;
  status: TaskSnapshot['status'];
  background: boolean;
  model: string | undefined;
  /** Messages of its conversation written so far. */
  conversationLength: number;
}

export class RunRecorder {
  /** Tasks started and not yet ended (per-task state is let go at the end). */
  private readonly open = new Map<string, OpenTask>();
  private readonly openByRun = new Map<string, Set<string>>();
  /** Tasks whose transcript the run file may lack entries of (few: see `holdsWhole`). */
  private readonly partialTranscripts = new Set<string>();
  /** Runs a write of which failed: their files may lack any record. */
  private readonly runsWithLostRecords = new Set<string>();

  constructor(private readonly host: RunRecorderHost) {}

  readonly onEvent = (event: TaskEvent): void => {
    switch (event.type) {
      case 'task-start':
        this.noteEarlierEntries(event.task);
        return this.started(event.task);
      case 'task-update':
        return this.updated(event.task);
      case 'task-transcript': {
        const runId = this.runOf(event.taskId);
        if (!runId || !this.host.writer.add(runId, { type: 'entry', taskId: event.taskId, index: event.index, entry: event.entry }))
          this.partialTranscripts.add(event.taskId);
        return;
      }
      case 'task-conversation':
        return this.conversation(event.taskId, event.messages);
      case 'task-compaction':
        return this.compacted(event);
      case 'task-end':
        return this.ended(event.task);
      default:
        return; // text deltas: the transcript entry that ends them is what is kept.
    }
  };

  /** True while the run has a task this process has seen start and not end. */
  hasOpenTasks(runId: string): boolean {
    return (this.openByRun.get(runId)?.size ?? 0) > 0;
  }

  runOf(taskId: string): string | undefined {
    return this.open.get(taskId)?.runId ?? this.host.index.runOf(taskId);
  }

  /**
   * True when every transcript entry of the task has been handed to the writer: this process saw the task
   * start (or the log already held its earlier entries), no entry of it was refused, and no write of its
   * run has failed. Once its run is written, the file holds the whole transcript.
   */
  holdsWhole(taskId: string, runId: string): boolean {
    return !this.partialTranscripts.has(taskId) && !this.runsWithLostRecords.has(runId);
  }

  /** The run's records were lost: each conversation record that follows must carry the whole conversation. */
  recordsLost(runId: string): void {
    this.runsWithLostRecords.add(runId);
    for (const task of this.open.values()) if (task.runId === runId) task.conversationLength = 0;
  }

  private started(task: TaskSnapshot): void {
    const runId = task.rootId;
    if (!this.host.writer.add(runId, { type: 'task', task }) || !safeRunId.test(runId)) return;
    this.open.set(task.id, { runId, status: task.status, background: task.background, model: task.model, conversationLength: 0 });
    const open = this.openByRun.get(runId) ?? new Set<string>();
    open.add(task.id);
    this.openByRun.set(runId, open);
    this.summarize(runId, task, true);
  }

  /** A task first seen after it started (attached late; an interrupted task loaded from the log). */
  private takenUp(task: TaskSnapshot): void {
    this.noteEarlierEntries(task);
    this.started(task);
  }

  /**
   * Entries a task had before this recorder saw it are in its run's file when the log knew the task (a
   * resumed or interrupted task of a logged run), and nowhere in the log when it did not (attached late,
   * or a history kept elsewhere).
   */
  private noteEarlierEntries(task: TaskSnapshot): void {
    if (task.transcriptLength > 0 && this.runOf(task.id) === undefined) this.partialTranscripts.add(task.id);
  }

  private updated(task: TaskSnapshot): void {
    const state = this.open.get(task.id);
    // Attached after the task started: it is taken up from here.
    if (!state) return this.takenUp(task);
    if (state.status === task.status && state.background === task.background && state.model === task.model) return;
    const statusChanged = state.status !== task.status;
    Object.assign(state, { status: task.status, background: task.background, model: task.model });
    this.host.writer.add(state.runId, { type: 'task', task });
    if (statusChanged && task.id === state.runId) this.summarize(state.runId, task, false);
  }

  private conversation(taskId: string, messages: readonly ModelMessage[]): void {
    const state = this.open.get(taskId);
    if (!state) return;
    // The last message written may have grown since; a shorter list (never expected) is written whole.
    const from = messages.length >= state.conversationLength ? Math.max(0, state.conversationLength - 1) : 0;
    const kept = this.host.writer.add(state.runId, { type: 'conversation', taskId, from, messages: messages.slice(from) });
    state.conversationLength = kept ? messages.length : 0;
    void this.host.writeRun(state.runId);
  }

  /** The conversation was replaced: the record says so, and the next conversation record carries it whole. */
  private compacted(event: Extract<TaskEvent, { type: 'task-compaction' }>): void {
    const state = this.open.get(event.taskId);
    if (!state) return;
    this.host.writer.add(state.runId, {
      type: 'compaction',
      taskId: event.taskId,
      beforeTokens: event.beforeTokens,
      afterTokens: event.afterTokens,
      trigger: event.trigger,
    });
    state.conversationLength = 0;
  }

  private ended(task: TaskSnapshot): void {
    if (!this.open.has(task.id)) this.takenUp(task);
    const state = this.open.get(task.id);
    if (!state) return;
    this.open.delete(task.id);
    const open = this.openByRun.get(state.runId);
    open?.delete(task.id);
    if (open?.size === 0) this.openByRun.delete(state.runId);
    this.host.writer.add(state.runId, { type: 'task', task });
    this.summarize(state.runId, task, false);
    const isRoot = task.id === state.runId;
    const written = this.host.writeRun(state.runId, { sync: isRoot });
    void written.then(() => {
      if (!this.hasOpenTasks(state.runId)) return this.host.writer.release(state.runId);
    });
    if (isRoot) this.host.rootEnded(state.runId, written);
  }

  /** The run's index line, from what it was and this task's news; written with the run's next lines. */
  private summarize(runId: string, task: TaskSnapshot, started: boolean): void {
    const previous: RunSummary | undefined = this.host.index.get(runId);
    const isRoot = task.id === runId;
    const known = previous?.taskIds ?? [];
    const taskIds = started && !known.includes(task.id) ? [...known, task.id] : known;
    this.host.index.update({
      runId,
      description: isRoot || !previous ? task.description : previous.description,
      role: isRoot || !previous ? task.role : previous.role,
      status: isRoot || !previous ? task.status : previous.status,
      createdAt: isRoot || !previous ? task.createdAt : previous.createdAt,
      updatedAt: this.host.now(),
      bytes: this.host.writer.bytesOf(runId),
      taskIds,
      openTasks: this.openByRun.get(runId)?.size ?? 0,
    });
  }
}
