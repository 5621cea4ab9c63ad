/** What the CLI's commands take, parsed (arguments.ts). */
import type { UndoArguments } from './undo-arguments.js';
import type { CapabilitySettings, InstructionSource } from '../engine/index.js';
import type { McpServersArguments } from './mcp-servers-arguments.js';
import type {
  AgentsArguments,
  ApplyArguments,
  ChecksArguments,
  ModelsArguments,
  RunsArguments,
  TrustArguments,
  WorkflowsArguments,
} from './listing-argument-types.js';

export type * from './listing-argument-types.js';

export type ProviderName = 'anthropic' | 'openai';

/**
 * What `run`, `mcp` and `serve` share: the capabilities' settings as their options gave them, and the
 * fields the CLI's engine reads, drawn from those settings (command-flags.ts).
 */
export interface CommandFlags {
  /** Every capability's settings, keyed by capability: an option's value where given, else the descriptor's default. */
  settings: CapabilitySettings;
  /** `--approve-plan`: the plan is put to the user (run: stdin; mcp: an elicitation; serve: the task's input-required state) before any subagent starts. Default: not asked. */
  approvePlan?: boolean;
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

export interface McpArguments extends CommandFlags {
  command: 'mcp';
  workspace: string;
  provider?: ProviderName;
  model?: string;
  baseUrl?: string;
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
  workspace: string;
  provider?: ProviderName;
  model?: string;
  baseUrl?: string;
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
