/**
 * The public types of the repository's own checks (issue 40): what a check is, where it was found, the
 * verdict of one run on a set of proposals compared with the workspace as it is, and the service the hosts
 * (the CLI, the extension) call. The JSON event `checks` and the VS Code views are built from these; the
 * names are the contract of the fourth wave ("Evidence") and stay stable.
 */
import type { ProposedFile } from '../file-tools/task-tools.js';

/** Where a check was found, for `agent-team checks` and the approval question. */
export type CheckSourceKind = 'checks-yaml' | 'package-json' | 'makefile' | 'pytest' | 'cargo' | 'go' | 'github-workflow';

/** One check of the repository: a command run in the scratch copy's workspace folder. */
export interface CheckDefinition {
  /** Unique among the workspace's checks, e.g. `npm test`, `pytest`, `tsc`. */
  name: string;
  /** The command line, run by bash (the same shell as the `Bash` tool). */
  command: string;
  /** Ends the check (and every process it started) after this long. Default 300 (defaultCheckTimeoutSeconds). */
  timeoutSeconds?: number;
  /** Globs (workspace-relative) of the files whose change triggers the check. Default: every change does. */
  when?: string[];
  /** The file it was found in, workspace-relative (`package.json`, `.github/workflows/ci.yml`, …). */
  source: string;
  sourceKind: CheckSourceKind;
}

/** A file that was looked at and not used, with why (shown by `agent-team checks`). */
export interface CheckDiscoveryNote {
  source: string;
  reason: string;
}

export interface CheckDiscovery {
  checks: CheckDefinition[];
  /** Steps or files refused (an expression `${{ }}` in a workflow step, a YAML that does not parse, …). */
  skipped: CheckDiscoveryNote[];
  /** True when `.agent-team/checks.yaml` defined the checks (discovery was not used). */
  fromChecksFile: boolean;
}

/** How one check's run ended. `skipped`: its `when` matched no changed file; `refused`: not approved, untrusted, no sandbox. */
export type CheckStatus = 'passed' | 'failed' | 'timed-out' | 'error' | 'skipped' | 'refused';

/** The result per check of one verdict: the JSON event's `results[]` entries (CONTRACTS4 "Evidence"). */
export interface CheckResult {
  name: string;
  status: CheckStatus;
  /** Tests (or files without errors) that passed, when the runner's output says so. */
  passed?: number;
  /** Tests that failed (or tsc/eslint errors), when the runner's output says so. */
  failed?: number;
  /** Failures with the proposals that the baseline does not have, by name ("parser › handles empty input", "src/a.ts: TS2322 …"). */
  newFailures: string[];
  /** Failures of the baseline that pass with the proposals. */
  fixed: string[];
  durationMs: number;
  /** The runner whose output was parsed (`vitest`, `pytest`, `tsc`, …), when one was recognised. */
  runner?: string;
  /** One line for people: "1 new failure: math › adds", "tsc: 3 new errors in src/a.ts", "timed out after 300 s". */
  summary?: string;
  /** The end of the output, trimmed and with secrets redacted. */
  output?: string;
  /** The exit code, when the process exited. */
  exitCode?: number;
}

/** The verdict of one run of the checks on a set of proposals: the JSON event `checks`. */
export interface ChecksVerdict {
  runId: string;
  /** The tasks whose pending proposals were applied (the tree's tasks with proposals). */
  taskIds: string[];
  results: CheckResult[];
}

/** A verdict with what the hosts need besides the event's fields. */
export interface ChecksVerdictDetail extends ChecksVerdict {
  /** Files the proposals change, workspace-relative. */
  changedFiles: string[];
  /** True when any check has new failures, failed where the baseline passed, or timed out. */
  hasNewFailures: boolean;
  /** One line for people ("checks: 2 passed, 1 with new failures: npm test (1 new failure: math › adds)"). */
  summary: string;
}

/** What is asked before a check runs, like a command's approval (commands/command-host.ts). */
export interface CheckApprovalRequest {
  runId: string;
  checks: Array<Pick<CheckDefinition, 'name' | 'command' | 'source'>>;
}

/** What the hosts pass to run the checks on proposals. */
export interface RunOnProposalsRequest {
  runId: string;
  taskIds: string[];
  /** The pending proposals, exactly: the files as they would be written. */
  proposals: readonly ProposedFile[];
  /** Files the proposals delete, workspace-relative (their checks' `when` matches them too). */
  deletedFiles?: readonly string[];
  signal?: AbortSignal;
}

/**
 * The engine's checks service. Hosts call `runOnProposals` when proposals are ready (a task completed with
 * proposals, a revision arrived, the user edited or rejected hunks); it never blocks the review: the
 * verdict arrives through the promise and `onVerdict`. A newer call for the same run cancels the older one.
 */
export interface ProposalChecks {
  /** The checks found in the workspace (or why none). */
  discover(signal?: AbortSignal): Promise<CheckDiscovery>;
  /** Runs the checks on the proposals and on the baseline (cached); resolves with the verdict. */
  runOnProposals(request: RunOnProposalsRequest): Promise<ChecksVerdictDetail>;
  /** Runs again with the last proposals of `runId` (Run Checks Again); the baseline is recomputed too. */
  rerun(runId: string, signal?: AbortSignal): Promise<ChecksVerdictDetail | undefined>;
  /** The last verdict of a run, if any. */
  lastVerdict(runId: string): ChecksVerdictDetail | undefined;
  /** Called with every verdict; returns the unsubscribe function. */
  onVerdict(listener: (verdict: ChecksVerdictDetail) => void): () => void;
  /** Cancels what runs for `runId` (or everything) and removes scratch copies. */
  dispose(): Promise<void>;
}

/** Default per-check timeout. */
export const defaultCheckTimeoutSeconds = 300;
/** Output kept per check (its end), after redaction. */
export const checkOutputBytes = 16 * 1024;
