/**
 * The engine's `ProposalChecks`: runs the workspace's checks on a run's pending proposals in a sandboxed
 * scratch copy, and once on the workspace as it is (the baseline, cached by baseline-key.ts), at the same
 * time, in two copies; compares them; hands the verdict to the caller and to every `onVerdict` listener.
 * Nothing here blocks the review: the hosts do not wait for it. A newer call for the same run stops the
 * older one (its processes ended, its promise rejected with the stop).
 */
import { combineSignals, throwIfStopped } from '../abort.js';
import type { CommandHost } from '../commands/command-host.js';
import type { CommandCopy } from '../commands/command-copy.js';
import type { SandboxState } from '../commands/sandbox/sandbox-state.js';
import { baselineKey } from './baseline-key.js';
import { checkRefusal } from './check-gate.js';
import type { CheckOutcome } from './check-outcome.js';
import { runCheckProcess } from './check-process.js';
import { compareWithBaseline } from './compare.js';
import { discoverChecks } from './discovery.js';
import type { CheckDefinition, CheckDiscovery, ChecksVerdictDetail, ProposalChecks, RunOnProposalsRequest } from './types.js';
import { buildVerdict } from './verdict.js';
import { proposalsFingerprint } from './pending-proposals.js';
import { triggeredBy } from './when-filter.js';

export interface ChecksServiceOptions {
  host: CommandHost;
  /** Whether the user trusted the folder's item for this check. */
  trusts(check: CheckDefinition): boolean;
  howToTrust: string;
  /** The values redacted from kept output (the configured keys). Default: none besides key-shaped values. */
  secrets?(): readonly string[];
  /** Default: discoverChecks over the host's workspace. Tests inject a list. */
  discover?(): Promise<CheckDiscovery>;
}

type Runnable = Exclude<SandboxState, { mode: 'unavailable' }>;

export class ChecksService implements ProposalChecks {
  private readonly listeners = new Set<(verdict: ChecksVerdictDetail) => void>();
  private readonly verdicts = new Map<string, ChecksVerdictDetail>();
  private readonly requests = new Map<string, RunOnProposalsRequest>();
  /** The proposals each run's last verdict is of: the same proposals again reuse it. */
  private readonly fingerprints = new Map<string, string>();
  private readonly running = new Map<string, AbortController>();
  /** Baseline outcomes by workspace key and check (name and command). */
  private readonly baselines = new Map<string, Promise<CheckOutcome>>();
  private readonly stopAll = new AbortController();

  constructor(private readonly options: ChecksServiceOptions) {}

  discover(): Promise<CheckDiscovery> {
    return this.options.discover?.() ?? discoverChecks(this.options.host.workspaceRoot);
  }

  async runOnProposals(request: RunOnProposalsRequest): Promise<ChecksVerdictDetail> {
    const fingerprint = proposalsFingerprint(request.proposals);
    const known = this.verdicts.get(request.runId);
    if (known && this.fingerprints.get(request.runId) === fingerprint && !this.running.has(request.runId))
      return { ...known, taskIds: request.taskIds };
    this.running.get(request.runId)?.abort(new Error('checks started again on newer proposals'));
    const own = new AbortController();
    this.running.set(request.runId, own);
    this.requests.set(request.runId, request);
    const combined = combineSignals([own.signal, this.stopAll.signal, ...(request.signal ? [request.signal] : [])]);
    try {
      const verdict = await this.verdictOf(request, combined.signal);
      throwIfStopped(combined.signal);
      this.verdicts.set(request.runId, verdict);
      this.fingerprints.set(request.runId, fingerprint);
      for (const listener of this.listeners) listener(verdict);
      return verdict;
    } finally {
      combined.dispose();
      if (this.running.get(request.runId) === own) this.running.delete(request.runId);
    }
  }

  async rerun(runId: string, signal?: AbortSignal): Promise<ChecksVerdictDetail | undefined> {
    const request = this.requests.get(runId);
    if (!request) return undefined;
    // Run Checks Again means again: the baseline too (the environment may have changed, not the files).
    this.baselines.clear();
    this.fingerprints.delete(runId);
    return this.runOnProposals({ ...request, ...(signal ? { signal } : {}) });
  }

  lastVerdict(runId: string): ChecksVerdictDetail | undefined {
    return this.verdicts.get(runId);
  }

  onVerdict(listener: (verdict: ChecksVerdictDetail) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async dispose(): Promise<void> {
    this.stopAll.abort(new Error('checks disposed'));
    this.listeners.clear();
    await Promise.all([this.options.host.copies.endTree(proposalsTree), this.options.host.copies.endTree(baselineTree)]);
  }

  private async verdictOf(request: RunOnProposalsRequest, signal: AbortSignal): Promise<ChecksVerdictDetail> {
    const { host } = this.options;
    const discovery = await this.discover();
    const changedFiles = [...new Set([...request.proposals.map((file) => file.path), ...(request.deletedFiles ?? [])])].sort();
    const state = await host.sandbox();
    const outcomes = new Map<string, CheckOutcome>();
    const runnable: CheckDefinition[] = [];
    for (const check of discovery.checks) {
      if (!(await triggeredBy(check, changedFiles))) {
        outcomes.set(check.name, {
          name: check.name,
          status: 'skipped',
          durationMs: 0,
          output: '',
          reason: `skipped: no changed file matches ${check.when?.join(', ')}`,
        });
        continue;
      }
      const refusal = await checkRefusal(check, request.runId, state, this.options, signal);
      if (refusal !== undefined)
        outcomes.set(check.name, { name: check.name, status: 'refused', durationMs: 0, output: '', reason: refusal });
      else runnable.push(check);
    }
    const baselines = new Map<string, CheckOutcome>();
    if (runnable.length > 0 && state.mode !== 'unavailable') {
      const [withProposals, before] = await Promise.all([
        this.runInCopy(proposalsTree, runnable, request, state, signal),
        this.baselineOf(runnable, state, signal),
      ]);
      for (const outcome of withProposals) outcomes.set(outcome.name, outcome);
      for (const outcome of before) baselines.set(outcome.name, outcome);
    }
    const results = discovery.checks.map((check) =>
      compareWithBaseline(outcomes.get(check.name) as CheckOutcome, baselines.get(check.name)),
    );
    return buildVerdict({ runId: request.runId, taskIds: request.taskIds, changedFiles, results, baselines });
  }

  /** The baseline of each check, from the cache when the workspace's content is what it was. */
  private async baselineOf(checks: CheckDefinition[], state: Runnable, signal: AbortSignal): Promise<CheckOutcome[]> {
    const key = await baselineKey(this.options.host.workspaceRoot, this.options.host.copies.git.git, signal);
    const missing = checks.filter((check) => key === undefined || !this.baselines.has(cacheKey(key, check)));
    const ran = missing.length === 0 ? Promise.resolve([]) : this.runInCopy(baselineTree, missing, { proposals: [] }, state, signal);
    if (key !== undefined) {
      for (const check of missing) {
        const entry = ran.then((outcomes) => outcomes.find((outcome) => outcome.name === check.name) as CheckOutcome);
        this.baselines.set(cacheKey(key, check), entry);
        // A baseline cut short (stopped) is not a baseline: the next call runs it again.
        entry.then(
          (outcome) => outcome.reason === 'stopped' && this.baselines.delete(cacheKey(key, check)),
          () => this.baselines.delete(cacheKey(key, check)),
        );
      }
    }
    if (key === undefined) return ran;
    return Promise.all(checks.map((check) => this.baselines.get(cacheKey(key, check)) as Promise<CheckOutcome>));
  }

  /** Runs `checks` one after another in one copy (a build and a test in one folder must not race). */
  private async runInCopy(
    tree: string,
    checks: CheckDefinition[],
    view: Pick<RunOnProposalsRequest, 'proposals'>,
    state: Runnable,
    signal: AbortSignal,
  ): Promise<CheckOutcome[]> {
    const { host } = this.options;
    const copy: CommandCopy = await host.copies.acquire(tree);
    let broken = false;
    try {
      await copy.prepare(view.proposals, signal).catch((error: unknown) => {
        broken = true;
        throw error;
      });
      const outcomes: CheckOutcome[] = [];
      for (const check of checks) {
        throwIfStopped(signal);
        outcomes.push(await runCheckProcess({ check, host, state, copy, signal, secrets: this.options.secrets?.() ?? [] }));
      }
      return outcomes;
    } finally {
      host.copies.release(tree, copy, { broken });
    }
  }
}

const proposalsTree = 'checks:proposals';
const baselineTree = 'checks:baseline';

function cacheKey(workspaceKey: string, check: CheckDefinition): string {
  return JSON.stringify([workspaceKey, check.name, check.command, check.timeoutSeconds ?? null]);
}
