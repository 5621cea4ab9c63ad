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
import type { TranscriptEntry } from '../agent/types.js';
import { type StopReason, errorMessage, isStopReason } from '../errors.js';
import { type Deferred, createDeferred } from '../util/deferred.js';
import { EventHub, type TaskEventListener } from './event-hub.js';
import type { TaskNotice } from './notifications.js';
import { BackgroundNotices } from './background-notices.js';
import { type BudgetChange, spendTokens, tightenTokenBudget } from './tree-budget.js';
import { parentFor } from './task-parent.js';
import { type ResolvedTaskManagerOptions, type TaskManagerOptions, duration, resolveOptions, validateStartOptions } from './options.js';
import { type TaskOutcome, transition } from './task-lifecycle.js';
import { stopTree, type TreeStopHost } from './stop-tree.js';
import { PausableTimer } from './pausable-timer.js';
import { TaskScheduler } from './task-scheduler.js';
import { type LifecycleReport, RunSizeLimit, lifecycleReportOf } from './lifecycle-report.js';
import { TaskError } from './task-error.js';
import { HistorySaver } from './history-saver.js';
import { persistedTaskOf, readHistory } from './task-history.js';
import {
  type TaskRecord,
  createTaskRecord,
  letGoOfWork,
  hasEnded,
  partialOutputOf,
  snapshotOf,
  statusOf,
  transcriptOf,
} from './task-record.js';
import { TaskTree } from './task-tree.js';
import { type WaitOptions, waitForEnd } from './task-wait.js';
import { type TaskEvent, type TaskSnapshot, isTerminal } from './types.js';
import { judgeWork, outputOf, type WorkOutcome } from './work-outcome.js';
import { createWorkContext } from './work-context.js';
import type { StartTaskOptions, StartTaskResult, TaskWork } from './work.js';
import { revivedRecord } from './task-revival.js';
import type { TranscriptArchive } from './transcript-archive.js';
import { TranscriptArchiving } from './transcript-archiving.js';

export type { LifecycleReport };

export class TaskManager {
  private readonly options: ResolvedTaskManagerOptions;
  private readonly tree = new TaskTree();
  private readonly notices: BackgroundNotices;
  private readonly hub: EventHub;
  /** Where ended tasks' transcripts go, and what the transcripts held in memory share. */
  private readonly archiving: TranscriptArchiving;
  private readonly scheduler: TaskScheduler;
  private readonly saver: HistorySaver;
  private closing: Promise<void> | undefined;
  private readonly runSize: RunSizeLimit;
  private readonly treeStopHost: TreeStopHost;

  constructor(options: TaskManagerOptions = {}) {
    this.options = resolveOptions(options);
    this.runSize = new RunSizeLimit(this.options.maxTasksPerRun);
    this.archiving = new TranscriptArchiving(this.options.maxTranscriptEntries, (message, cause) => this.warn(message, cause));
    this.notices = new BackgroundNotices(this.options.noticeOutputChars, this.tree);
    this.hub = new EventHub((error) => this.warn(`an event listener threw: ${errorMessage(error)}`, error));
    this.scheduler = new TaskScheduler(this.options.maxConcurrent, {
      startWork: (record) => this.startWork(record),
      userWaitChanged: (record) => this.userWaitChanged(record),
    });
    this.treeStopHost = {
      tree: this.tree,
      scheduler: this.scheduler,
      decideStopped: (record, reason) => this.decideOutcome(record, 'stopped', { reason }),
      announceEnd: (record) => this.announceEnd(record),
      awaitWork: (record) => {
        this.emitUpdate(record);
        record.cancelGraceTimer = this.options.clock.setTimer(() => this.endAfterGrace(record), this.options.stopGraceMs);
      },
    };
    this.saver = new HistorySaver(
      this.options.store,
      () => ({ version: 1, tasks: this.tree.all().map(persistedTaskOf) }),
      (message, cause) => this.warn(message, cause),
    );
  }

  /**
   * Starts a task. `foreground` resolves when it ends; `background` at once (queued or running); `auto` when
   * it ends or, after `autoBackgroundMs`, with `backgrounded: true` while the work goes on. Rejects with a
   * `TaskError` for bad options, an unknown or ended parent, or a closed manager.
   */
  async start(options: StartTaskOptions): Promise<StartTaskResult> {
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
    this.scheduler.enqueue(record);
    if (options.mode === 'background') return { task: snapshotOf(record), backgrounded: true };
    const caller = createDeferred<StartTaskResult>();
    if (options.mode === 'auto' && Number.isFinite(autoBackgroundMs) && !hasEnded(record)) {
      record.autoBackgroundTimer = new PausableTimer(this.options.clock, autoBackgroundMs, () => this.moveToBackground(record, caller));
    }
    void record.end.promise.then(() => caller.resolve({ task: snapshotOf(record), backgrounded: false }));
    // The parent's work is blocked on this call: it gives its slot to the work it waits for.
    return parent ? this.scheduler.whileWaiting(parent, caller.promise, { endsWith: record }) : caller.promise;
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
    this.scheduler.enqueue(record);
    return snapshotOf(record);
  }

  get(id: string): TaskSnapshot | undefined {
    const record = this.tree.get(id);
    return record ? snapshotOf(record) : undefined;
  }

  /** Every task, in creation order (a parent before its children). */
  list(): TaskSnapshot[] {
    return this.tree.all().map(snapshotOf);
  }

  /** The tasks of the tree `rootId` heads, parents first (empty for an unknown id): a tree's own lookups never walk the whole history. */
  treeOf(rootId: string): TaskSnapshot[] {
    const root = this.tree.get(rootId);
    return root ? this.tree.subtreeOf(root).map(snapshotOf) : [];
  }

  children(id: string): TaskSnapshot[] {
    return this.tree.childrenOf(this.tree.get(id)).map(snapshotOf);
  }

  /** The kept transcript entries (see `maxTranscriptEntries`); empty for an unknown id or an archived transcript. */
  transcript(id: string): TranscriptEntry[] {
    const record = this.tree.get(id);
    return record ? transcriptOf(record) : [];
  }

  /** As `transcript`; an archived transcript (`archiveTranscripts`) is read back from the archive. */
  async readTranscript(id: string): Promise<TranscriptEntry[]> {
    const record = this.tree.get(id);
    return record?.transcriptInArchive ? this.archiving.read(record) : this.transcript(id);
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
    return waiter ? this.scheduler.whileWaiting(waiter, ended, { endsWith: record }) : ended;
  }

  /** Where every task is in its lifecycle and how many slots are held: what a stall diagnostic names, and what the lifecycle tests check. */
  lifecycleReport(): LifecycleReport {
    return lifecycleReportOf(this.tree.all(), this.scheduler);
  }

  /**
   * Stops the task and every unfinished task below it (those get reason `parent-stopped`, naming the
   * nearest ancestor this stop reached). Their status is `stopped` at once and their slots are freed at
   * once; resolves with the task's final snapshot when all their work has returned, or after `stopGraceMs`.
   */
  async stop(id: string, reason: StopReason = { kind: 'user' }): Promise<TaskSnapshot> {
    const record = this.require(id);
    if (!isStopReason(reason)) throw new TaskError('invalid-options', 'stop() needs a StopReason such as { kind: "user" }.');
    this.stopTree(record, reason);
    await Promise.all(this.tree.subtreeOf(record).map((node) => node.end.promise));
    return snapshotOf(record);
  }

  /** Stops every unfinished task; resolves when all have ended (each within `stopGraceMs`). */
  async stopAll(reason: StopReason = { kind: 'user' }): Promise<void> {
    // Creation order puts parents first, so a cascade reaches a child before the loop does.
    for (const record of this.tree.all()) {
      if (!isTerminal(statusOf(record))) this.stopTree(record, reason);
    }
    await Promise.all(this.tree.all().map((record) => record.end.promise));
  }

  /** Changes how many tasks may work at once, for queued tasks too: a higher limit starts waiting ones at once; a lower one stops nothing. */
  setMaxConcurrent(maxConcurrent: number): void {
    if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1)
      throw new TaskError('invalid-options', `maxConcurrent must be a whole number of at least 1, not ${maxConcurrent}.`);
    this.scheduler.resize(maxConcurrent);
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

  /** The unended tasks whose notices come to `id`: its own below it, and those its ended subtasks left (background-notices.ts). */
  awaitedBy(id: string): TaskSnapshot[] {
    return this.notices.awaitedBy(id).map(snapshotOf);
  }

  /** The text a running task has streamed since its last finished step ('' when none): a live view's catch-up. */
  streamingText(id: string): string {
    const record = this.tree.get(id);
    return record && !hasEnded(record) ? record.streamingText : '';
  }

  /** What an unfinished task has produced so far (its streamed text); for an ended task, its output. */
  partialOutput(id: string): string | undefined {
    const record = this.tree.get(id);
    if (!record) return undefined;
    return hasEnded(record) ? record.output : partialOutputOf(record);
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

  /** A queued task got its first slot (it is `running`): its work starts. */
  private startWork(record: TaskRecord): void {
    record.startedAt = this.options.clock.now();
    this.emitUpdate(record);
    const context = createWorkContext(record, {
      maxTranscriptEntries: this.options.maxTranscriptEntries,
      intern: (text) => this.archiving.intern(text),
      emit: (event) => this.hub.emit(event),
      emitUpdate: (target) => this.emitUpdate(target),
      reportUsage: (target, delta) => this.applyBudget(spendTokens(target, this.tree.ancestryOf(target), delta, this.options.priceOf)),
      limitTreeTokens: (target, maxTokens) => this.applyBudget(tightenTokenBudget(target, maxTokens)),
      whileWaiting: (target, waitedFor, forUser) => this.scheduler.whileWaiting(target, waitedFor, { forUser }),
      inUserTurn: (ask, signal, onQueued) => this.scheduler.userTurns.take(ask, signal, onQueued),
    });
    // Called on a later microtask so that work which stops or starts tasks at once cannot re-enter the
    // manager halfway through `start`; a task stopped in between never has its work called at all.
    void Promise.resolve()
      .then(() => (record.phase === 'stopping' ? undefined : record.work?.(context)))
      .then(
        (result) => this.settleWork(record, { threw: false, result }),
        (error: unknown) => this.settleWork(record, { threw: true, error }),
      );
  }

  private settleWork(record: TaskRecord, outcome: WorkOutcome): void {
    if (record.phase === 'ended') return; // Returned after its grace: too late to change anything.
    if (record.phase === 'stopping') {
      // Stopped (or over budget) while working: what it returns is its partial output, nothing more.
      const output = outcome.threw ? undefined : outputOf(outcome.result);
      if (output) record.output = output;
    } else {
      const judged = judgeWork(outcome);
      this.decideOutcome(record, judged.outcome, judged.error === undefined ? {} : { error: judged.error });
      if (judged.output !== undefined) record.output = judged.output;
    }
    transition(record, 'end');
    this.announceEnd(record);
  }

  private decideOutcome(record: TaskRecord, outcome: TaskOutcome, details: { error?: string; reason?: StopReason } = {}): void {
    record.outcome = outcome;
    record.endedAt = this.options.clock.now();
    if (details.error !== undefined) record.error = details.error;
    if (details.reason !== undefined) record.stopReason = details.reason;
    record.output = partialOutputOf(record);
    record.autoBackgroundTimer?.cancel();
  }

  /** Emits `task-end` for a task that has just moved to `ended`: from here on the task is history. */
  private announceEnd(record: TaskRecord): void {
    record.cancelGraceTimer?.();
    record.autoBackgroundTimer?.cancel();
    const snapshot = snapshotOf(record);
    this.notices.taskEnded(record, snapshot);
    this.hub.emit({ type: 'task-end', task: snapshot });
    record.end.resolve();
    letGoOfWork(record);
    this.archiving.taskEnded(record);
    // After its `task-end`, so that no observer ever sees one task more than the limit running.
    this.scheduler.end(record);
    this.saver.request();
  }

  private moveToBackground(record: TaskRecord, caller: Deferred<StartTaskResult>): void {
    if (isTerminal(statusOf(record))) return;
    record.background = true;
    this.emitUpdate(record);
    caller.resolve({ task: snapshotOf(record), backgrounded: true });
  }

  private stopTree(top: TaskRecord, reason: StopReason): void {
    stopTree(this.treeStopHost, top, reason);
  }

  /** A task began or stopped waiting for the user: its status changed, and its auto-background clock stops or goes on. */
  private userWaitChanged(record: TaskRecord): void {
    if (record.userWaits > 0) record.autoBackgroundTimer?.pause();
    else record.autoBackgroundTimer?.resume();
    this.emitUpdate(record);
  }

  private endAfterGrace(record: TaskRecord): void {
    if (record.phase !== 'stopping') return;
    transition(record, 'end');
    this.announceEnd(record);
  }

  // ── what the work can do ─────────────────────────────────────────────────────────────────────────────

  /** Snapshots a spend (or a tighter budget) changed go out; then the outermost tree over its budget is stopped. */
  private applyBudget({ updated, overBudget }: BudgetChange): void {
    for (const node of updated) this.emitUpdate(node);
    if (overBudget) this.stopTree(overBudget.task, overBudget.reason);
  }

  private require(id: string): TaskRecord {
    const record = this.tree.get(id);
    if (!record) throw new TaskError('unknown-task', `There is no task ${id}; list the tasks to see which ids exist.`);
    return record;
  }

  private emitUpdate(record: TaskRecord): void {
    if (!hasEnded(record)) this.hub.emit({ type: 'task-update', task: snapshotOf(record) } satisfies TaskEvent);
  }

  private warn(message: string, cause?: unknown): void {
    try {
      this.options.onWarning(message, cause);
    } catch {
      // A warning sink that throws has nowhere left to report to.
    }
  }
}
