/**
 * When the repository's checks run on a run's proposals in VS Code, and what each run's checks are now
 * (issue 40). They run, in the background of the review and never blocking it:
 * - when a run ends with proposals its last verdict does not cover (the coordinator's own verdict, which
 *   the engine gets before it answers, covers them: then nothing runs again);
 * - when the user edits a proposal (saves the proposed side), rejects hunks or files, or a revision
 *   arrives, once the run is quiet for `settleMs` (a Reject All of ten files runs them once);
 * - on Run Checks Again (`run`).
 * A newer run of the same run's checks cancels the older. Views (the sidebar, the review's lenses) read
 * `get`/`all` and listen with `onChange`.
 */
import type { ChangeSetEvent, ChangeSetRegistry } from '../../engine/changes/index.js';
import type { ChecksVerdictDetail, ProposalChecks } from '../../engine/checks/types.js';
import { type Clock, systemClock } from '../../engine/clock.js';
import { errorMessage } from '../../engine/errors.js';
import { isTerminal, type TaskEvent, type TaskManager } from '../../engine/tasks/index.js';
import { type RunChecks, toRunChecks } from '../../shared/protocol-checks.js';
import { runProposals } from './run-proposals.js';

/** What of the engine's checks service the extension uses. */
export type ChecksService = Pick<ProposalChecks, 'discover' | 'runOnProposals' | 'rerun' | 'onVerdict'>;

export interface RunChecksOptions {
  changes: ChangeSetRegistry;
  taskManager: TaskManager;
  /** The engine's checks service (built with the engine); undefined when it has none. */
  service: () => Promise<ChecksService | undefined>;
  /** `agentTeam.checks` is on and the folder is trusted: checks start by themselves only then. */
  enabled: () => boolean;
  /** Times the settling. Default `systemClock`. */
  clock?: Clock;
  /** Quiet time after the last edit, rejection or task end before the checks run. Default 1000 ms. */
  settleMs?: number;
  log: { info(message: string): void; warn(message: string): void };
}

export const defaultSettleMs = 1000;

export class RunChecksTracker {
  private readonly states = new Map<string, RunChecks>();
  private readonly verdicts = new Map<string, ChecksVerdictDetail>();
  private readonly inFlight = new Map<string, AbortController>();
  private readonly timers = new Map<string, () => void>();
  /** Runs whose proposals changed since their last verdict. */
  private readonly stale = new Set<string>();
  private readonly listeners = new Set<(run: RunChecks) => void>();
  private readonly unsubscribe: Array<() => void> = [];
  private listenedService: ChecksService | undefined;
  /** False until `start`: restoring the history re-announces every saved proposal, which must run nothing. */
  private started = false;

  constructor(private readonly options: RunChecksOptions) {
    this.unsubscribe.push(
      options.taskManager.onEvent((event) => this.onTaskEvent(event)),
      options.changes.onEvent((event) => this.onChangeEvent(event)),
    );
  }

  /** From now on, ends and decisions start checks (call once the history is loaded). */
  start(): void {
    this.started = true;
  }

  get(runId: string): RunChecks | undefined {
    return this.states.get(runId);
  }

  /** The last verdict of a run, and whether its proposals changed since (Apply to Branch's pull request says so). */
  verdict(runId: string): { run: RunChecks; stale: boolean } | undefined {
    const verdict = this.verdicts.get(runId);
    return verdict ? { run: toRunChecks(verdict, 'done', runId), stale: this.stale.has(runId) || this.inFlight.has(runId) } : undefined;
  }

  all(): RunChecks[] {
    return [...this.states.values()];
  }

  onChange(listener: (run: RunChecks) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs the checks on the run's proposals now, cancelling any still running for it. Resolves with the
   * run's checks afterwards; undefined when nothing waits for review or a newer run superseded this one.
   * `again` (Run Checks Again): when the proposals are those of the last verdict, the engine runs them
   * anew, the baseline too (it would otherwise hand back the verdict it has for the same proposals).
   */
  async run(runId: string, options: { again?: boolean } = {}): Promise<RunChecks | undefined> {
    this.timers.get(runId)?.();
    this.timers.delete(runId);
    const { taskIds, proposals } = runProposals(this.options.changes, this.options.taskManager, runId);
    if (taskIds.length === 0) return undefined;
    this.inFlight.get(runId)?.abort();
    const controller = new AbortController();
    this.inFlight.set(runId, controller);
    const current = () => this.inFlight.get(runId) === controller;
    try {
      // An engine without checks (or none built: no folder) shows nothing rather than a failure per run.
      const service = await this.options.service().catch(() => undefined);
      if (!service || !current()) {
        if (current()) this.inFlight.delete(runId);
        return undefined;
      }
      this.attach(service);
      // A workspace without checks shows nothing at all: no "running" that would come and go in every review.
      if ((await service.discover(controller.signal)).checks.length === 0 || !current()) {
        if (current()) this.inFlight.delete(runId);
        return undefined;
      }
      const unchanged = this.verdicts.has(runId) && !this.stale.has(runId);
      this.stale.delete(runId);
      this.update(toRunChecks(this.verdicts.get(runId), 'running', runId));
      const verdict =
        (options.again === true && unchanged ? await service.rerun(runId, controller.signal) : undefined) ??
        (await service.runOnProposals({ runId, taskIds, proposals, signal: controller.signal }));
      if (!current()) return undefined;
      this.inFlight.delete(runId);
      this.verdicts.set(runId, verdict);
      this.options.log.info(`Checks of run ${runId}: ${verdict.summary}`);
      return this.update(toRunChecks(verdict, 'done', runId));
    } catch (error) {
      if (!current()) return undefined;
      this.inFlight.delete(runId);
      this.options.log.warn(`Checks of run ${runId} could not run: ${errorMessage(error)}`);
      return this.update(toRunChecks(this.verdicts.get(runId), 'failed', runId, `Checks could not run: ${errorMessage(error)}`));
    }
  }

  dispose(): void {
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    this.listeners.clear();
  }

  /**
   * Listens to the engine's verdicts (call when the engine is built): those it reached by itself (the
   * coordinator's, before it answers) count as the run's too, so the run's end runs nothing again.
   */
  attach(service: ChecksService): void {
    if (this.listenedService === service) return;
    this.listenedService = service;
    this.unsubscribe.push(
      service.onVerdict((verdict) => {
        if (this.inFlight.has(verdict.runId)) return; // ours: `run` takes it from its promise
        this.verdicts.set(verdict.runId, verdict);
        this.stale.delete(verdict.runId);
        this.update(toRunChecks(verdict, 'done', verdict.runId));
      }),
    );
  }

  private onTaskEvent(event: TaskEvent): void {
    if (event.type !== 'task-end' || !this.started) return;
    const runId = event.task.rootId;
    if (this.verdicts.has(runId) && !this.stale.has(runId)) return;
    if (this.treeSettled(runId)) this.schedule(runId);
  }

  private onChangeEvent(event: ChangeSetEvent): void {
    const relevant = event.type === 'change-proposed' || event.type === 'change-withdrawn' || (event.type === 'change-decided' && event.decision === 'rejected');
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
      void this.run(runId);
    }, this.options.settleMs ?? defaultSettleMs);
    this.timers.set(runId, cancel);
  }

  private update(run: RunChecks): RunChecks {
    this.states.set(run.runId, run);
    for (const listener of this.listeners) listener(run);
    return run;
  }
}
