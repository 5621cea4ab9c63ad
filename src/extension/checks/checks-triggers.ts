/**
 * When a run's checks start by themselves in VS Code (issue 40), never blocking the review:
 * - when a run ends with proposals its last verdict does not cover (the coordinator's own verdict, which
 *   the engine reaches before it answers, covers them: then nothing runs again);
 * - when the user edits a proposal (saves the proposed side), rejects hunks or files, or a revision
 *   arrives, once the run has been quiet for `settleMs` (a Reject All of ten files runs them once).
 * Only with `agentTeam.checks` on in a trusted folder, and only once the history is loaded (restoring it
 * re-announces every saved proposal, which must start nothing).
 */
import {
  type ChangeSetEvent,
  type ChangeSetRegistry,
  type Clock,
  DisposableStore,
  isTerminal,
  systemClock,
  type TaskEvent,
  type TaskManager,
} from '../../engine/index.js';

export interface ChecksTriggerOptions {
  changes: ChangeSetRegistry;
  taskManager: TaskManager;
  /** `agentTeam.checks` is on and the folder is trusted. */
  enabled: () => boolean;
  /** Whether the run has a verdict at all. */
  hasVerdict: (runId: string) => boolean;
  /** Starts the run's checks. */
  run: (runId: string) => void;
  /** Times the settling. Default `systemClock`. */
  clock?: Clock;
  /** Quiet time after the last edit, rejection or task end before the checks run. Default 1000 ms. */
  settleMs?: number;
}

export const defaultSettleMs = 1000;

export class ChecksTriggers {
  private readonly timers = new Map<string, () => void>();
  /** Runs whose proposals changed since their last verdict. */
  private readonly stale = new Set<string>();
  private readonly subscriptions = new DisposableStore();
  private started = false;

  constructor(private readonly options: ChecksTriggerOptions) {
    this.subscriptions.addAll(
      options.taskManager.onEvent((event) => this.onTaskEvent(event)),
      options.changes.onEvent((event) => this.onChangeEvent(event)),
    );
  }

  /** From now on, ends and decisions start checks (call once the history is loaded). */
  start(): void {
    this.started = true;
  }

  /** The run's proposals changed since its last verdict. */
  isStale(runId: string): boolean {
    return this.stale.has(runId);
  }

  /** The run's checks are starting now: a start still waiting for quiet is not needed. */
  cancelPending(runId: string): void {
    this.timers.get(runId)?.();
    this.timers.delete(runId);
  }

  /** A verdict on the run's current proposals is on its way (or here). */
  covered(runId: string): void {
    this.stale.delete(runId);
    this.cancelPending(runId);
  }

  dispose(): void {
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    this.subscriptions.dispose();
  }

  private onTaskEvent(event: TaskEvent): void {
    if (event.type !== 'task-end' || !this.started) return;
    const runId = event.task.rootId;
    if (this.options.hasVerdict(runId) && !this.stale.has(runId)) return;
    if (this.treeSettled(runId)) this.schedule(runId);
  }

  private onChangeEvent(event: ChangeSetEvent): void {
    const relevant =
      event.type === 'change-proposed' ||
      event.type === 'change-withdrawn' ||
      (event.type === 'change-decided' && event.decision === 'rejected');
    const runId = relevant ? this.options.taskManager.get(event.taskId)?.rootId : undefined;
    if (runId === undefined || !this.started) return;
    this.stale.add(runId);
    // While the run works its proposals are still moving: its end (onTaskEvent) starts the checks.
    if (this.treeSettled(runId)) this.schedule(runId);
  }

  /** Every task of the run has ended (a revision under a finished run is still work in progress). */
  private treeSettled(runId: string): boolean {
    const tasks = this.options.taskManager.treeOf(runId);
    return tasks.length > 0 && tasks.every((task) => isTerminal(task.status));
  }

  private schedule(runId: string): void {
    if (!this.options.enabled()) return;
    this.timers.get(runId)?.();
    const cancel = (this.options.clock ?? systemClock).setTimer(() => {
      this.timers.delete(runId);
      this.options.run(runId);
    }, this.options.settleMs ?? defaultSettleMs);
    this.timers.set(runId, cancel);
  }
}
