/** What `createCliEngine` takes: the flags of the commands that run agents, and the process's ports. */
import type {
  CapabilitySettings,
  DelegationReach,
  InstructionSource,
  SandboxAvailability,
  TaskManager,
  UserChannel,
} from '../engine/index.js';
import type { ProviderName } from './arguments.js';
import type { TrustQuestion } from './folder-trust.js';
import type { CliRunHistory } from './run-history.js';

export interface CliEngineOptions {
  workspace: string;
  provider?: ProviderName;
  model?: string;
  /** `--fallback-model`: the models every task goes on with, in order, when its own is down. Default: none. */
  fallbackModels?: readonly string[];
  baseUrl?: string;
  maxConcurrent?: number;
  maxDepth?: number;
  autoBackgroundSeconds?: number;
  delegationReach?: DelegationReach;
  /** True: any fan-out may start (`--yes`); else more than 8 subagents in one turn are refused. */
  yes?: boolean;
  /** `--approve-plan`: the plan is put to the user before any subagent starts. Default false. */
  approvePlan?: boolean;
  /** Where nobody answered the plan question, how the user can, said in the failure. Default: on stdin (`run`). */
  planAnswerHowTo?: string;
  /** Commands `Bash` may run (`--allow-command`); nobody is asked about others: they are refused. */
  allowCommands?: readonly string[];
  /** `--no-sandbox`: commands run as the user, without the OS sandbox. */
  noSandbox?: boolean;
  /** `--allow-network`: every sandboxed command gets the network. */
  allowNetwork?: boolean;
  /** `--allow-network-command`: the sandboxed commands that get the network. */
  allowNetworkCommands?: readonly string[];
  /** More secrets to keep out of every command and tool result (the tokens `serve` takes). */
  secrets?: readonly string[];
  /** `--pass-env`: variables commands get besides the allowlist's. */
  passEnvironment?: readonly string[];
  /** `--allow-domain`: the sites WebFetch reads (`*.example.com` for its subdomains); any other is refused. */
  allowDomains?: readonly string[];
  /** `--model-prices <file>`: the user's prices over the list's. Default: the list's alone. */
  modelPrices?: string;
  /** `--budget-usd`: checked here against the prices (a model with none refuses to start). Default: no budget. */
  budgetUsd?: number;
  /** `--context-window <tokens>`: every model's window, over the list's. Default: the list's. */
  contextWindow?: number;
  /** `--no-hooks`: no hook runs. Default: the settings files' hooks run. */
  noHooks?: boolean;
  /** `--trust`: the folder's own hooks and role files' servers run this once, not remembered. Default: as the trust store says. */
  trust?: boolean;
  /** Asks the user whether an untrusted folder may run its configuration (`run` on a terminal). Default: nobody is asked; it does not run. */
  askTrust?: TrustQuestion;
  /** `--instruction-files`: the sources agents' instruction files come from. Default: every source. */
  instructionFiles?: readonly InstructionSource[];
  /** The capabilities' settings as the command line gave them (command-flags.ts). Default: every default. */
  settings?: CapabilitySettings;
  /** Whether this machine can sandbox commands. Default: found by trying. Tests inject an answer. */
  detectSandbox?: () => Promise<SandboxAvailability>;
  /** `--checks`: the coordinator hears the checks' verdict on its subagents' proposals. Default false. */
  checks?: boolean;
  /** `--fix-until-green <n>`: rounds the coordinator may send work back. Default 0. */
  fixUntilGreen?: number;
  /** Where runs are kept (the run log). Default: nowhere (memory only). */
  history?: (workspaceRoot: string) => Promise<CliRunHistory>;
  userChannel?: (taskManager: TaskManager) => UserChannel | undefined;
  environment: NodeJS.ProcessEnv;
  stderr: { write(text: string): void };
}
