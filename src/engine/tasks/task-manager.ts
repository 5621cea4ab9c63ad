/**
 * The task manager: runs work it knows nothing about (a function taking an AbortSignal) as tasks in a tree,
 * foreground, background or auto-background, under a concurrency limit and token budgets, and reports
 * everything as one stream of snapshot events.
 *
 * Lifecycle: the state machine in task-lifecycle.ts (status queued → running → completed | failed |
 * stopped). Terminal states are final: once a task's status is terminal nothing relabels it, and once its
 * `task-end` is out nothing about it changes or is emitted. A stop is immediate (status, slot, signal); the
 * task's `task-end` follows when its work returns (its returned output becomes the partial output) or
 * after `stopGraceMs`, whichever comes first.
 *
 * Concurrency: at most `maxConcurrent` tasks hold a slot, and only tasks doing work hold one: a task whose
 * work waits on a subtask (or on anything through `waitFor`) gives its slot back and queues for one again
 * when the wait is over, ahead of new work. Nested delegation therefore never deadlocks on the limit.
 */
import { type StopReason, errorMessage, isStopReason } from '../errors.js';
import { createDeferred } from '../util/deferred.js';
import { EventHub, type TaskEventListener } from './event-hub.js';
import type { TaskNotice } from './notifications.js';
import { BackgroundNotices } from './background-notices.js';
import { parentFor } from './task-parent.js';
import { type ResolvedTaskManagerOptions, type TaskManagerOptions, duration, resolveOptions, validateStartOptions } from './options.js';
import { PausableTimer } from './pausable-timer.js';
import { type LifecycleReport, RunSizeLimit, lifecycleReportOf } from './lifecycle-report.js';
import { TaskError } from './task-error.js';
import { HistorySaver } from './history-saver.js';
import { persistedTaskOf, readHistory } from './task-history.js';
import { createTaskRecord, hasEnded, snapshotOf, statusOf } from './task-record.js';
import { TaskReader } from './task-reader.js';
import { TaskRunner } from './task-runner.js';
import { TaskTree } from './task-tree.js';
import { type WaitOptions, waitForEnd } from './task-wait.js';
import { type TaskSnapshot, isTerminal } from './types.js';
import type { StartTaskOptions, StartTaskResult, TaskWork } from './work.js';
import { revivedRecord } from './task-revival.js';
import type { TranscriptArchive } from './transcript-archive.js';
import { TranscriptArchiving } from './transcript-archiving.js';

export type { LifecycleReport };

/** See `TaskManager.placeOf`. */
export interface TaskPlace {
  readonly parentId: string | null;
  readonly rootId: string;
  readonly prompt: string;
  /** Started as a follow-up or revision under an ended task. */
  readonly followUp: boolean;
  /** Frozen; absent when it has none (as in its snapshot). */
  readonly ancestorTasks?: readonly string[];
}

/** The options' warning sink, made safe: a sink that throws has nowhere left to report to. */
function warningSink(options: ResolvedTaskManagerOptions): (message: string, cause?: unknown) => void {
  return (message, cause) => {
    try {
      options.onWarning(message, cause);
    } catch {
      // Nowhere left to report to.
    }
  };
}

export class TaskManager extends TaskReader {
  private readonly options: ResolvedTaskManagerOptions;
  private readonly hub: EventHub;
  private readonly runner: TaskRunner;
  private readonly saver: HistorySaver;
  private closing: Promise<void> | undefined;
  private readonly runSize: RunSizeLimit;
  private readonly warn: (message: string, cause?: unknown) => void;

  constructor(options: TaskManagerOptions = {}) {
    const resolved = resolveOptions(options);
    const warn = warningSink(resolved);
    const tree = new TaskTree();
    super(tree, new TranscriptArchiving(resolved.maxTranscriptEntries, warn), new BackgroundNotices(resolved.noticeOutputChars, tree));
    this.options = resolved;
    this.warn = warn;
    this.runSize = new RunSizeLimit(resolved.maxTasksPerRun);
    this.hub = new EventHub((error) => warn(`an event listener threw: ${errorMessage(error)}`, error));
    this.saver = new HistorySaver(resolved.store, () => ({ version: 1, tasks: tree.all().map(persistedTaskOf) }), warn);
    this.runner = new TaskRunner({
      options: resolved,
      tree,
      hub: this.hub,
      notices: this.notices,
      archiving: this.archiving,
      saver: this.saver,
    });
  }

  /**
   * Starts a task. `foreground` resolves when it ends; `background` at once (queued or running); `auto` when
   * it ends or, after `autoBackgroundMs`, with `backgrounded: true` while the work goes on. Rejects with a
   * `TaskError` for bad options, an unknown or ended parent, or a closed manager.
   */
  start(options: StartTaskOptions): Promise<StartTaskResult> {
    // Not an async function: its promise would only wrap the caller's wait in one more (B1).
    try {
      return this.startTask(options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private startTask(options: StartTaskOptions): Promise<StartTaskResult> {
    if (this.closing)
      throw new TaskError('closed', 'The task manager has been closed (Agent Team is shutting down); no new task can start.');
    validateStartOptions(options);
    const parent = parentFor(this.tree, options.parentId ?? null, options.followUp === true);
    if (parent) {
      this.runSize.count(
        parent.rootId,
        (limit) =>
          new TaskError(
            'limit',
            `This run has already started ${limit} tasks, the most one run may start; finish with the results you have.`,
          ),
      );
    }
    const autoBackgroundMs = options.autoBackgroundMs ?? this.options.autoBackgroundMs;
    const record = createTaskRecord(this.tree.freshId(this.options.generateId), options, parent, this.options.clock.now());
    this.tree.add(record);
    this.hub.emit({ type: 'task-start', task: snapshotOf(record) });
    this.saver.request();
    // A listener of its task-start may have stopped it already: an ended task takes no slot.
    if (!hasEnded(record)) this.runner.scheduler.enqueue(record);
    if (options.mode === 'background') return Promise.resolve({ task: snapshotOf(record), backgrounded: true });
    const caller = createDeferred<StartTaskResult>();
    // Resolved at its end with the `task-end` snapshot (task-runner.ts `announceEnd`), or now if a listener
    // of the events above has already stopped it.
    if (hasEnded(record)) caller.resolve({ task: snapshotOf(record), backgrounded: false });
    else record.caller = caller;
    if (options.mode === 'auto' && Number.isFinite(autoBackgroundMs) && !hasEnded(record)) {
      record.autoBackgroundTimer = new PausableTimer(this.options.clock, autoBackgroundMs, () =>
        this.runner.moveToBackground(record, caller),
      );
    }
    // The parent's work is blocked on this call: it gives its slot to the work it waits for.
    return parent ? this.runner.scheduler.whileWaiting(parent, caller.promise, { endsWith: record }) : caller.promise;
  }

  /**
   * Continues an interrupted task in place (same id, transcript, spend) with new `work`, queued as a background task: resolves at
   * once; `wait` for its end. Its parent is not made to wait: a resumed parent's own work waits for the children it had running.
   * Rejects with a `TaskError` for a task that is not interrupted, or a closed manager.
   */
  async resume(id: string, work: TaskWork): Promise<TaskSnapshot> {
    if (this.closing)
      throw new TaskError('closed', 'The task manager has been closed (Agent Team is shutting down); no task can be resumed.');
    const old = this.require(id);
    const record = revivedRecord(old, old.parentId === null ? undefined : this.tree.get(old.parentId), work, this.options.clock.now());
    this.tree.replace(record);
    // Its transcript grows again: an archived one comes back into memory.
    if (old.transcriptInArchive) this.archiving.bringBack(record, old.transcriptLength);
    this.hub.emit({ type: 'task-start', task: snapshotOf(record) });
    this.saver.request();
    this.runner.scheduler.enqueue(record);
    return snapshotOf(record);
  }

  /** Lets go of ended tasks' transcripts once `archive` holds them (transcript-archive.ts); returns the detach. Not with a store that saves. */
  archiveTranscripts(archive: TranscriptArchive): () => void {
    return this.options.store?.save ? () => undefined : this.archiving.use(archive, this.tree.all());
  }

  /** Resolves with the final snapshot at the task's end, or with the current one at `timeoutMs`. */
  async wait(id: string, options: WaitOptions = {}): Promise<TaskSnapshot> {
    const record = this.require(id);
    if (options.timeoutMs !== undefined) duration(options.timeoutMs, 'timeoutMs');
    const waiter = options.waiterId === undefined ? undefined : this.require(options.waiterId);
    const ended = waitForEnd(record, this.options.clock, options);
    return waiter ? this.runner.scheduler.whileWaiting(waiter, ended, { endsWith: record }) : ended;
  }

  /**
   * A task's place in its tree, without a snapshot of it: what every subagent's start reads of its own
   * task and its parent (B1 in docs/performance.md: a snapshot copies and freezes the whole task). Undefined
   * for an unknown id.
   */
  placeOf(id: string): TaskPlace | undefined {
    const record = this.tree.get(id);
    if (!record) return undefined;
    return {
      parentId: record.parentId,
      rootId: record.rootId,
      prompt: record.prompt,
      followUp: record.followUp === true,
      ...(record.ancestorTasks ? { ancestorTasks: record.ancestorTasks } : {}),
    };
  }

  /** Where every task is in its lifecycle and how many slots are held: what a stall diagnostic names, and what the lifecycle tests check. */
  lifecycleReport(): LifecycleReport {
    return lifecycleReportOf(this.tree.all(), this.runner.scheduler);
  }

  /**
   * Stops the task and every unfinished task below it (those get reason `parent-stopped`, naming the
   * nearest ancestor this stop reached). Their status is `stopped` at once and their slots are freed at
   * once; resolves with the task's final snapshot when all their work has returned, or after `stopGraceMs`.
   */
  async stop(id: string, reason: StopReason = { kind: 'user' }): Promise<TaskSnapshot> {
    const record = this.require(id);
    if (!isStopReason(reason)) throw new TaskError('invalid-options', 'stop() needs a StopReason such as { kind: "user" }.');
    this.runner.stopTree(record, reason);
    await Promise.all(this.tree.subtreeOf(record).map((node) => node.end.promise));
    return snapshotOf(record);
  }

  /** Stops every unfinished task; resolves when all have ended (each within `stopGraceMs`). */
  async stopAll(reason: StopReason = { kind: 'user' }): Promise<void> {
    // Creation order puts parents first, so a cascade reaches a child before the loop does.
    for (const record of this.tree.all()) {
      if (!isTerminal(statusOf(record))) this.runner.stopTree(record, reason);
    }
    await Promise.all(this.tree.all().map((record) => record.end.promise));
  }

  /** Changes how many tasks may work at once, for queued tasks too: a higher limit starts waiting ones at once; a lower one stops nothing. */
  setMaxConcurrent(maxConcurrent: number): void {
    if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1)
      throw new TaskError('invalid-options', `maxConcurrent must be a whole number of at least 1, not ${maxConcurrent}.`);
    this.runner.scheduler.resize(maxConcurrent);
  }

  /** Subscribes to the event stream (snapshots only, in order); returns the unsubscribe function. */
  onEvent(listener: TaskEventListener): () => void {
    return this.hub.subscribe(listener);
  }

  /** Ends of background tasks `recipientId` hears of (null: root tasks'), oldest first (background-notices.ts). Taking them clears them. */
  takeNotifications(recipientId: string | null): TaskNotice[] {
    return this.notices.take(recipientId);
  }

  /** Drops the pending notice of `taskId`: its parent already read the result (`TaskOutput`). */
  dismissNotification(taskId: string): void {
    this.notices.dismiss(taskId);
  }

  /** Stops everything with reason `shutdown`, saves, and refuses new tasks from now on. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.stopAll({ kind: 'shutdown' });
      await this.flush();
    })();
    return this.closing;
  }

  /**
   * Reads the store's history (call it before starting tasks). Tasks that were queued or running when it
   * was saved come back as `stopped` with reason `interrupted`. Ids already present are skipped.
   */
  async load(): Promise<void> {
    const store = this.options.store;
    if (!store) return;
    const history = await readHistory(
      store,
      (id) => this.tree.has(id),
      this.options.clock.now(),
      this.options.maxTranscriptEntries,
      (message, error) => this.warn(message, error),
    );
    if (!history) return;
    this.tree.prepend(history.records);
    for (const record of history.records) this.archiving.taskEnded(record);
    // Tasks found interrupted are saved as such, so the next load agrees.
    if (history.interrupted) this.saver.request();
  }

  /**
   * Removes every task tree whose tasks have all ended, saves, and returns the removed ids (the caller
   * refreshes its views with `list()`). Trees with anything still queued or running are kept whole.
   */
  async clearHistory(): Promise<string[]> {
    const removed = this.tree.removeEndedTrees();
    for (const id of removed) {
      this.notices.forget(id);
      this.runSize.forget(id);
    }
    this.saver.request();
    await this.saver.flush();
    return removed;
  }

  /** Resolves once the latest state has been handed to the store and saved (and archived transcripts let go of). */
  async flush(): Promise<void> {
    await Promise.all([this.saver.flush(), this.archiving.settled()]);
  }
}
