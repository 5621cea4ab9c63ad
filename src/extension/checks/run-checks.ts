/**
 * What each run's checks are now in VS Code (issue 40), and running them on exactly what the run proposes:
 * by themselves (checks-triggers.ts says when) or on Run Checks Again (`run`). A newer run of the same
 * run's checks cancels the older. Views (the sidebar, the review's lenses) read `get`/`all` and listen
 * with `onChange`.
 */
import {
  type ChangeSetRegistry,
  type ChecksVerdictDetail,
  type Clock,
  DisposableStore,
  errorMessage,
  pendingProposals,
  type ProposalChecks,
  type TaskManager,
} from '../../engine/index.js';
import { type RunChecks, toRunChecks } from '../../shared/protocol-checks.js';
import { ChecksTriggers } from './checks-triggers.js';

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

export class RunChecksTracker {
  private readonly states = new Map<string, RunChecks>();
  private readonly verdicts = new Map<string, ChecksVerdictDetail>();
  private readonly inFlight = new Map<string, AbortController>();
  private readonly triggers: ChecksTriggers;
  private readonly listeners = new Set<(run: RunChecks) => void>();
  private readonly subscriptions = new DisposableStore();
  private listenedService: ChecksService | undefined;

  constructor(private readonly options: RunChecksOptions) {
    this.triggers = new ChecksTriggers({
      ...options,
      hasVerdict: (runId) => this.verdicts.has(runId),
      run: (runId) => void this.run(runId),
    });
  }

  /** From now on, ends and decisions start checks (call once the history is loaded). */
  start(): void {
    this.triggers.start();
  }

  get(runId: string): RunChecks | undefined {
    return this.states.get(runId);
  }

  /** The last verdict of a run, and whether its proposals changed since (Apply to Branch's pull request says so). */
  verdict(runId: string): { run: RunChecks; stale: boolean } | undefined {
    const verdict = this.verdicts.get(runId);
    return verdict
      ? { run: toRunChecks(verdict, 'done', runId), stale: this.triggers.isStale(runId) || this.inFlight.has(runId) }
      : undefined;
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
    this.triggers.cancelPending(runId);
    const { taskIds, proposals } = pendingProposals(this.options.changes, this.options.taskManager, runId);
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
      const unchanged = this.verdicts.has(runId) && !this.triggers.isStale(runId);
      this.triggers.covered(runId);
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
    this.triggers.dispose();
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
    this.subscriptions.dispose();
    this.listeners.clear();
  }

  /**
   * Listens to the engine's verdicts (call when the engine is built): those it reached by itself (the
   * coordinator's, before it answers) count as the run's too, so the run's end runs nothing again.
   */
  attach(service: ChecksService): void {
    if (this.listenedService === service) return;
    this.listenedService = service;
    this.subscriptions.add(
      service.onVerdict((verdict) => {
        if (this.inFlight.has(verdict.runId)) return; // ours: `run` takes it from its promise
        this.verdicts.set(verdict.runId, verdict);
        this.triggers.covered(verdict.runId);
        this.update(toRunChecks(verdict, 'done', verdict.runId));
      }),
    );
  }

  private update(run: RunChecks): RunChecks {
    this.states.set(run.runId, run);
    for (const listener of this.listeners) listener(run);
    return run;
  }
}
