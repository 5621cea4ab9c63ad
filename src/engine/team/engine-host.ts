/** What a host supplies to `createEngine`: only what differs between the CLI, the extension and the servers. */
import type { McpInputAsker } from '../mcp/mcp-inputs.js';
import type { HostToolPort } from '../mcp/host-tools.js';
import type { ChecksSettings } from '../checks/checks-settings.js';
import type { ContextPolicy } from '../agent/compaction/context-policy.js';
import type { Clock } from '../clock.js';
import type { CommandHostOptions } from '../commands/create-command-host.js';
import type { ConversationStore } from '../conversation/conversation-store.js';
import type { UserChannel } from '../conversation/user-channel.js';
import type { DelegationReach } from '../delegation/delegation-reach.js';
import type { FanOutPolicy } from '../delegation/fan-out.js';
import type { Model } from '../model/types.js';
import type { EngineTelemetry } from '../telemetry/telemetry-types.js';
import type { EngineCore, EngineCorePorts } from './engine-core.js';
import type { TeamRolePorts } from './engine-roles.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { Workspace } from '../workspace/workspace.js';
import type { InstructionSource } from '../instructions/instruction-sources.js';
import type { WebHost } from '../web/web-host.js';
import type { ModelChooser } from './team-options.js';
import type { FolderItem } from './folder-item.js';
import type { CapabilitySettings } from './capabilities.js';

export type Environment = Readonly<Record<string, string | undefined>>;

export interface EngineHost {
  workspace: Workspace & { readonly root: string };
  /** The task manager and change sets, where the host shows them before the engine exists (the extension's sidebar); the engine owns them from then on. Default: built here from `tasks`. */
  core?: EngineCore;
  /** How the engine builds its core when the host brings none (ignored with `core`). Default: memory only, the manager's limits. */
  tasks?: Omit<EngineCorePorts, 'onWarning' | 'clock'>;
  /** How the folder's role files are read and watched; the user's own roles are always read too (engine-roles.ts). Default: from disk, not watched. */
  roleSources?: Pick<TeamRolePorts, 'source' | 'userPromptsDirectory' | 'watch'>;
  /** Hears what the engine's parts warn about (a damaged history line, a failed shutdown step). */
  warn(message: string): void;
  /** Starts OpenTelemetry over the task manager (`open()`); the engine shuts it down last. Default: none. */
  telemetry?(taskManager: TaskManager, secrets: () => readonly string[]): Promise<EngineTelemetry | undefined>;
  /**
   * False where the folder is not trusted (VS Code's Restricted Mode; in the CLI, a folder without
   * `agent-team trust` or `--trust`): its own executable configuration does not run — its settings files'
   * hooks, its role files' MCP servers and remote agents. The user's own hooks and roles run regardless
   * (in the sandbox); instruction files are text, read regardless.
   */
  trusted(): boolean;
  /**
   * Where the user trusted a folder for an exact list (the CLI), whether an item read later is on it: a
   * hook added to its settings after that (they are read at each task's start) does not run. Default: every
   * item of a trusted folder.
   */
  trustsFolderItem?(item: FolderItem): boolean;
  /** How the user trusts the folder, said where its configuration was held back. Default: VS Code's (Manage Workspace Trust). */
  howToTrust?: string;
  /** Who allows commands and how they run (create-command-host.ts), but for the workspace and tasks, which are the engine's. */
  commands: Omit<CommandHostOptions, 'workspaceRoot' | 'taskManager' | 'secretValues' | 'sourceEnvironment' | 'clock'>;
  /** How `task` and `chat` agents reach the user, made over the engine's task manager. Default: none (they are told no user is available). */
  userChannel?(taskManager: TaskManager): UserChannel | undefined;
  /** Whether the coordinator hears the checks' verdict, and fix-until-green (src/engine/checks). Default: off. */
  checks?: ChecksSettings;
  /** Where runs' conversations are kept, for follow-ups. Default: none. */
  conversations?: ConversationStore;
  /** The configured secrets (API keys, remote agents' tokens), read at each use: no process, tool result or error carries one. */
  secrets(): readonly string[];
  /** What processes start from, and where keys and `a2a_auth_env` tokens are read. */
  environment: Environment;
  /** Where remote roles read their tokens. Default: `environment`. */
  remoteEnvironment?(): Environment;
  /** Which sites `WebFetch` reads without asking, who is asked about the others, and how a user allows one. */
  web: Omit<WebHost, 'clock'>;
  /** The instruction files agents get (`agentTeam.instructionFiles`, `--instruction-files`). Default: every source. */
  instructionSources?(): readonly InstructionSource[];
  /** The models' context windows and when conversations are compacted (compaction/). Default: the list's windows, 80 %. */
  context?: ContextPolicy;
  /** Wraps each agent task's model, to observe its requests, before telemetry's wrapper. Default: none. */
  observeModel?(taskId: string, model: Model): Model;
  /** Whether hooks run (`agentTeam.hooks`, `--no-hooks`), read at each task's start. Default: they do, where the workspace is trusted. */
  hooksEnabled?(): boolean;
  /** The capabilities' settings as the host has them now (parsed by their descriptors), read at each task's start. Default: every default. */
  settings?(): CapabilitySettings;
  /** The user's own MCP servers' files, first first (mcp-config-files.ts). Default: `$XDG_CONFIG_HOME/agent-team/mcp.json`, else `~/.config/agent-team/mcp.json`. */
  mcpUserFiles?: readonly string[];
  /** Asks the user for a configured server's `${input:id}` (VS Code's input box). Default: nobody; the server is held back. */
  askMcpInput?: McpInputAsker;
  /** Where nobody is asked for an input, how the user gives the value instead. Default: in the server's entry. */
  mcpInputHowTo?: string;
  /** The host's own registered tools, for roles naming `vscode__<tool>` (VS Code's `vscode.lm.tools`). Default: none. */
  hostTools?: HostToolPort;
  /** The user's home, where their own instruction files and hook settings are. Default: the system's. */
  userHome?: string;
  /** Measures every deadline. Default `systemClock`. */
  clock?: Clock;
  /** The models of runs that bring none. Default: each run brings its own. */
  modelFor?: ModelChooser;
  /** Added to every system prompt so agents know where they are. */
  environmentNote: string;
  /** Keep every subagent's conversation (the user may ask one for changes). Default false. */
  keepSubagentConversations?: boolean;
  /** Asks whether one turn may start more subagents than `confirmFanOutAbove`. Default: nobody is asked; it is refused. */
  confirmFanOut?: FanOutPolicy['confirm'];
  /** Where nobody is asked, how the user allows a wider fan-out (the CLI: `--yes`). */
  fanOutHowToAllow?: string;
  /** Whether a run's plan waits for the user's approval before any subagent starts (`agentTeam.approvePlan`, `--approve-plan`), read as each run starts. Default: it does not. */
  approvePlan?(): boolean;
  /** Where nobody answered the plan question, how the user can (the CLI: on stdin), said in the failure. */
  planAnswerHowTo?: string;
}

/** The limits of a team, read by the host (flags, settings). Each defaults as in `limitRanges`. */
export interface TeamSettings {
  maxDepth?: number;
  autoBackgroundSeconds?: number;
  delegationReach?: DelegationReach;
  /** Infinity: any fan-out starts without asking. */
  confirmFanOutAbove?: number;
}
