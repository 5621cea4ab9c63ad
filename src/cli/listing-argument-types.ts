/** What the CLI's commands that run no agent take, parsed (arguments.ts): listings, the history, trust and checks. */

export interface AgentsArguments {
  command: 'agents';
  workspace: string;
}

/** `agent-team models`: the default models and the price list. */
export interface ModelsArguments {
  command: 'models';
  /** `--model-prices <file>`: the user's prices, shown over the list's. Default: the list alone. */
  modelPrices?: string;
}

/** `agent-team trust`: shows what the folder would run and records the user's yes. */
export interface TrustArguments {
  command: 'trust';
  workspace: string;
}

/** `agent-team checks`: the workspace's own checks and where they were found. */
export interface ChecksArguments {
  command: 'checks';
  workspace: string;
  json: boolean;
}

export interface WorkflowsArguments {
  command: 'workflows';
  workspace: string;
}

/** `agent-team runs`: the run history with its pending proposals. */
export interface RunsArguments {
  command: 'runs';
  workspace: string;
  /** One JSON object per run. */
  json: boolean;
}

/** `agent-team apply <runId>`: a finished run's proposals written to the working tree, or committed on a new branch. */
/** One `--hunk` / `--reject-hunk` file: its path as given and hunk numbers as `apply --show` prints them (1-based, sorted). */
export interface HunkChoice {
  path: string;
  numbers: number[];
}

export interface ApplyArguments {
  command: 'apply';
  runId: string;
  workspace: string;
  /** `--file` (repeatable): only these of the run's proposed files. Empty: every one. */
  files: string[];
  /** `--branch <name>`: commit them on this new branch (through a worktree of its own) instead. */
  branch?: string;
  /** A JSON object with the outcome on stdout; the report on stderr. */
  json: boolean;
  /** `--force`: apply a foreign run's proposals (its run log does not verify as the user's). Default false. */
  force?: boolean;
  /** `--show`: print each proposal as it would be applied (rebased onto the earlier tasks' changes to its file, conflicts with both sides); write nothing. Default false. */
  show?: boolean;
  /** `--take <taskId>`: settle each conflict between tasks' proposals on that task's side. Default: conflicted files are not written. */
  take?: string;
  /** `--conflict-markers`: write a conflicted file with both sides of each conflict between markers, to edit by hand. Default false. */
  conflictMarkers?: boolean;
  /** `--hunk <file>:<n>[,<n>…]` (repeatable): write only these hunks of the run's proposals; the rest stays proposed. Default: none (whole files). */
  hunks?: HunkChoice[];
  /** `--reject-hunk <file>:<n>[,<n>…]` (repeatable): reject these hunks; what is left of the file stays proposed without them. Default: none. */
  rejectHunks?: HunkChoice[];
}
