/**
 * A task's work from its first slot to its `task-end` (its context, its outcome judged, the end announced,
 * what only the running work needed let go of), and the moves its life brings: a tree's stop, a move to
 * the background, a wait for the user, a budget spent. The task manager (task-manager.ts) owns the API.
 */
import type { StopReason } from '../errors.js';
import type { Deferred } from '../util/deferred.js';
import type { BackgroundNotices } from './background-notices.js';
import type { EventHub } from './event-hub.js';
import type { HistorySaver } from './history-saver.js';
import type { ResolvedTaskManagerOptions } from './options.js';
import { stopTree, type TreeStopHost } from './stop-tree.js';
import { type TaskOutcome, transition } from './task-lifecycle.js';
import { type TaskRecord, hasEnded, letGoOfWork, partialOutputOf, snapshotOf, statusOf } from './task-record.js';
import { TaskScheduler } from './task-scheduler.js';
import type { TaskTree } from './task-tree.js';
import type { TranscriptArchiving } from './transcript-archiving.js';
import { type BudgetChange, spendTokens, tightenTokenBudget } from './tree-budget.js';
import { type TaskEvent, isTerminal } from './types.js';
import { createWorkContext } from './work-context.js';
import { judgeWork, outputOf, type WorkOutcome } from './work-outcome.js';
import type { StartTaskResult, TaskWorkContext } from './work.js';

/** What the runner shares with the task manager. */
export interface TaskRunnerParts {
  options: ResolvedTaskManagerOptions;
  tree: TaskTree;
  hub: EventHub;
  notices: BackgroundNotices;
  archiving: TranscriptArchiving;
  saver: HistorySaver;
}

const settledPromise = Promise.resolve();

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

export class TaskRunner {
  readonly scheduler: TaskScheduler;
  private readonly treeStopHost: TreeStopHost;
  constructor(private readonly parts: TaskRunnerParts) {
    this.scheduler = new TaskScheduler(parts.options.maxConcurrent, {
      startWork: (record) => this.startWork(record),
      userWaitChanged: (record) => this.userWaitChanged(record),
    });
    this.treeStopHost = {
      tree: parts.tree,
      scheduler: this.scheduler,
      decideStopped: (record, reason) => this.decideOutcome(record, 'stopped', { reason }),
      announceEnd: (record) => this.announceEnd(record),
      awaitWork: (record) => {
        this.emitUpdate(record);
        record.cancelGraceTimer = parts.options.clock.setTimer(() => this.endAfterGrace(record), parts.options.stopGraceMs);
      },
    };
  }

  readonly stopTree = (top: TaskRecord, reason: StopReason): void => stopTree(this.treeStopHost, top, reason);

  /** An `auto` task ran out its time in the foreground: its caller goes on, the work too. */
  moveToBackground(record: TaskRecord, caller: Deferred<StartTaskResult>): void {
    if (isTerminal(statusOf(record))) return;
    record.background = true;
    this.emitUpdate(record);
    caller.resolve({ task: snapshotOf(record), backgrounded: true });
  }

  emitUpdate(record: TaskRecord): void {
    if (!hasEnded(record)) this.parts.hub.emit({ type: 'task-update', task: snapshotOf(record) } satisfies TaskEvent);
  }

  /** A queued task got its first slot (it is `running`): its work starts. */
  private startWork(record: TaskRecord): void {
    const { options, tree, hub, archiving } = this.parts;
    record.startedAt = options.clock.now();
    this.emitUpdate(record);
    const context = createWorkContext(record, {
      maxTranscriptEntries: options.maxTranscriptEntries,
      intern: (text) => archiving.intern(text),
      emit: (event) => hub.emit(event),
      emitUpdate: (target) => this.emitUpdate(target),
      reportUsage: (target, delta) => this.applyBudget(spendTokens(target, tree.ancestryOf(target), delta, options.priceOf)),
      limitTreeTokens: (target, maxTokens) => this.applyBudget(tightenTokenBudget(target, maxTokens)),
      whileWaiting: (target, waitedFor, forUser) => this.scheduler.whileWaiting(target, waitedFor, { forUser }),
      inUserTurn: (ask, signal, onQueued) => this.scheduler.userTurns.take(ask, signal, onQueued),
    });
    // Called on a later microtask so that work which stops or starts tasks at once cannot re-enter the
    // manager halfway through `start`; a task stopped in between never has its work called at all.
    void settledPromise.then(() => this.runWork(record, context));
  }

  /** Calls the work and settles the task with what it returns, reading its promise directly (B1: no promise between). */
  private runWork(record: TaskRecord, context: TaskWorkContext): void {
    let result: unknown;
    try {
      result = record.phase === 'stopping' ? undefined : record.work?.(context);
    } catch (error) {
      this.settleWork(record, { threw: true, error });
      return;
    }
    if (!isPromiseLike(result)) return this.settleWork(record, { threw: false, result });
    result.then(
      (value) => this.settleWork(record, { threw: false, result: value }),
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
    record.endedAt = this.parts.options.clock.now();
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
    this.parts.notices.taskEnded(record, snapshot);
    this.parts.hub.emit({ type: 'task-end', task: snapshot });
    record.end.resolve();
    // After `end`: its waiters hear of it first, as when the caller waited on `end` itself.
    record.caller?.resolve({ task: snapshot, backgrounded: false });
    letGoOfWork(record);
    this.parts.archiving.taskEnded(record);
    // After its `task-end`, so that no observer ever sees one task more than the limit running.
    this.scheduler.end(record);
    this.parts.saver.request();
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

  /** Snapshots a spend (or a tighter budget) changed go out; then the outermost tree over its budget is stopped. */
  private applyBudget({ updated, overBudget }: BudgetChange): void {
    for (const node of updated) this.emitUpdate(node);
    if (overBudget) this.stopTree(overBudget.task, overBudget.reason);
  }
}
