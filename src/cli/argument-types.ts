/** What the CLI's commands take, parsed (arguments.ts). */
import type { UndoArguments } from './undo-arguments.js';
import type { InstructionSource } from '../engine/instructions/instruction-sources.js';
import type { McpServersArguments } from './mcp-servers-arguments.js';

export type ProviderName = 'anthropic' | 'openai';

/** How agents' commands run: `--allow-command`, `--no-sandbox`, `--allow-network`, `--allow-network-command`. */
export interface CommandFlags {
  /** Commands `Bash` may run (`--allow-command`, repeatable); any other is refused. */
  allowCommands: string[];
  /** `--no-sandbox`: commands run without the OS sandbox (as the user), when allowed. */
  noSandbox: boolean;
  /** `--allow-network`: every sandboxed command gets the network. */
  allowNetwork: boolean;
  /** `--allow-network-command` (repeatable): sandboxed commands matching these get the network. */
  allowNetworkCommands: string[];
  /** `--pass-env` (repeatable): variables commands get besides the allowlist's. */
  passEnvironment: string[];
  /** `--allow-domain` (repeatable): sites WebFetch reads; any other is refused. */
  allowDomains: string[];
  /** `--no-hooks`: no hook of the settings files runs. */
  noHooks: boolean;
  /** `--trust`: the folder's own hooks and role files' servers run this once (not remembered). */
  trust: boolean;
  /** `--instruction-files`: which instruction files agents get (default: every source; `none`: none). */
  instructionFiles: InstructionSource[];
}

export interface RunArguments extends CommandFlags {
  command: 'run';
  task: string;
  workspace: string;
  provider?: ProviderName;
  model?: string;
  /** `--fallback-model` (repeatable): models to go on with, in order, when the model is down. Default: none. */
  fallbackModels?: readonly string[];
  baseUrl?: string;
  agent?: string;
  /** A workflow of `.agent-team/workflows` to run with the task as its input, instead of the coordinator. */
  workflow?: string;
  /** Plan the task with the recursive planner instead of the coordinator. */
  plan: boolean;
  /** A finished run (its root task id) to continue with the task as the follow-up message. */
  continueRun?: string;
  /** `--resume <runId>`: go on with a run whose tasks were interrupted (no task words). */
  resumeRun?: string;
  /** `--force`: go on (`--resume`, `--continue`) with a foreign run, one whose run log does not verify as the user's. Default false. */
  force?: boolean;
  /** `--keep-runs <n>`: the run history keeps the newest n runs (besides its age limit). */
  keepRuns?: number;
  /** Sub-tasks per plan at most (default 5). */
  maxSubtasks: number;
  json: boolean;
  apply: boolean;
  /** Tasks doing work at once (default 4). */
  maxConcurrent: number;
  /** How deep delegation may nest (default 3). */
  maxDepth: number;
  /** Seconds a foreground subagent runs before it moves to the background (default 120). */
  autoBackgroundSeconds: number;
  /** Tokens (input + output) the whole run may spend; undefined: no limit. */
  budgetTokens?: number;
  /** `--budget-usd`: US dollars the whole run may spend, at the models' prices. */
  budgetUsd?: number;
  /** `--model-prices <file>`: prices (JSON, as `agentTeam.modelPrices`) over the list's. */
  modelPrices?: string;
  /** `--context-window <tokens>`: every model's context window for this run, over the list's. Default: the list's. */
  contextWindow?: number;
  /** Which roles an agent may hand work to (default `own-tools`). */
  delegationReach: 'own-tools' | 'any';
  /** Allow a turn to start more subagents than the confirmation limit (8): nobody can be asked here. */
  yes: boolean;
  /** `--approve-plan`: the plan is put to the user (on stdin) before any subagent starts. Default: not asked. */
  approvePlan?: boolean;
  /** Where to write the run's trace when it ends: Markdown for `.md`, else JSON. */
  trace?: string;
  /** `--file` (repeatable): files and folders of the workspace the task is about, named to the agents. */
  files: string[];
  /** `--image` (repeatable): images sent with the prompt to the root agent (relative to the current directory). */
  images: string[];
  /** `--checks` / `--no-checks`: run the workspace's checks on the proposals when the run ends. Default false. */
  checks?: boolean;
  /** `--fix-until-green <n>`: rounds the coordinator may send work back after new failures (implies --checks). Default 0. */
  fixUntilGreen?: number;
}

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

export interface McpArguments extends CommandFlags {
  command: 'mcp';
  workspace: string;
  provider?: ProviderName;
  model?: string;
  baseUrl?: string;
  /** `--approve-plan`: each run's plan is put to the client (an elicitation) before any subagent starts. Default: not asked. */
  approvePlan?: boolean;
}

export interface ServeArguments extends CommandFlags {
  command: 'serve';
  /** The protocol served; `a2a` is the only one, and `--a2a` is required so that others can come. */
  protocol: 'a2a';
  /** 0 picks a free port (the address is printed on stderr). */
  port: number;
  /** The address to listen on (`--host`, default 127.0.0.1); anything but loopback needs `authTokenEnv`. */
  host: string;
  /** The variable holding the bearer token(s) clients must send (`--auth-token-env`; comma-separated: one per client). */
  authTokenEnv?: string;
  /** `--no-auth`: serve without a token (loopback only); required when `authTokenEnv` is not given. Default false. */
  noAuth: boolean;
  /** `--approve-plan`: each run's plan is put to its client (the task's `input-required` state) before any subagent starts. Default: not asked. */
  approvePlan?: boolean;
  workspace: string;
  provider?: ProviderName;
  model?: string;
  baseUrl?: string;
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

export type CliArguments =
  | McpServersArguments
  | RunArguments
  | ModelsArguments
  | ChecksArguments
  | TrustArguments
  | RunsArguments
  | ApplyArguments
  | UndoArguments
  | AgentsArguments
  | WorkflowsArguments
  | McpArguments
  | ServeArguments
  | { command: 'help'; /** `agent-team <topic> --help`: that command's help alone. Default: all of it. */ topic?: string }
  | { command: 'version' };
