/**
 * The one way to build the engine. The CLI, the extension, the MCP server and the A2A server each supply
 * only what differs between them (`EngineHost`: trust, who allows commands, the user channel, the
 * secrets, the stores, the clock); everything else is built here the same way for all of them.
 */
import type { A2aHost } from '../a2a/remote-task-work.js';
import type { Capability } from '../capabilities/capability.js';
import type { ChangeSetRegistry } from '../changes/registry.js';
import type { Clock } from '../clock.js';
import { type CommandHostOptions, createCommandHost, type DisposableCommandHost } from '../commands/create-command-host.js';
import { serverSandbox } from '../commands/sandbox/server-launch.js';
import type { ConversationStore } from '../conversation/conversation-store.js';
import { MessageInbox } from '../conversation/message-inbox.js';
import type { UserChannel } from '../conversation/user-channel.js';
import type { DelegationReach } from '../delegation/delegation-reach.js';
import type { FanOutPolicy } from '../delegation/fan-out.js';
import { createWorkspaceToolbox, describeTaskChanges } from '../file-tools/workspace-toolbox.js';
import { defaultLimits } from '../limits.js';
import type { McpHost } from '../mcp/mcp-role-tools.js';
import type { RoleRegistry } from '../roles/role-registry.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { Workspace } from '../workspace/workspace.js';
import { AgentTeam } from './agent-team.js';
import { teamCapabilities } from './capabilities.js';
import type { ModelChooser } from './team-options.js';

type Environment = Readonly<Record<string, string | undefined>>;

export interface EngineHost {
  workspace: Workspace & { readonly root: string };
  roles: RoleRegistry;
  taskManager: TaskManager;
  changes: ChangeSetRegistry;
  /** False where the workspace is not trusted (Restricted Mode): no MCP server starts, no remote agent is reached. */
  trusted(): boolean;
  /** Who allows commands and how they run (create-command-host.ts), but for the workspace and tasks, which are the engine's. */
  commands: Omit<CommandHostOptions, 'workspaceRoot' | 'taskManager' | 'secretValues' | 'sourceEnvironment' | 'clock'>;
  /** How `task` and `chat` agents reach the user. Default: none (they are told no user is available). */
  userChannel?: UserChannel;
  /** Where runs' conversations are kept, for follow-ups. Default: none. */
  conversations?: ConversationStore;
  /** The configured secrets (API keys, remote agents' tokens), read at each use: no process, tool result or error carries one. */
  secrets(): readonly string[];
  /** What processes start from, and where keys and `a2a_auth_env` tokens are read. */
  environment: Environment;
  /** Where remote roles read their tokens. Default: `environment`. */
  remoteEnvironment?(): Environment;
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
}

/** The limits of a team, read by the host (flags, settings). Each defaults as in `limitRanges`. */
export interface TeamSettings {
  maxDepth?: number;
  autoBackgroundSeconds?: number;
  delegationReach?: DelegationReach;
  /** Infinity: any fan-out starts without asking. */
  confirmFanOutAbove?: number;
}

export interface Engine {
  readonly roles: RoleRegistry;
  readonly taskManager: TaskManager;
  readonly changes: ChangeSetRegistry;
  /** Messages for running tasks, shared by every team of the engine. */
  readonly inbox: MessageInbox;
  readonly commands: DisposableCommandHost;
  /** What agents may do beyond files and delegation, in the order they are asked. */
  readonly capabilities: readonly Capability[];
  /** The team with these limits: one per combination (a team holds no state of its own, so replacing it is free). */
  team(settings?: TeamSettings): AgentTeam;
  /** Ends what the engine holds besides tasks (the scratch copies of commands). */
  close(): Promise<void>;
}

export function createEngine(host: EngineHost): Engine {
  const { workspace, taskManager, changes } = host;
  const commands = createCommandHost({
    ...host.commands,
    workspaceRoot: workspace.root,
    taskManager,
    secretValues: host.secrets,
    sourceEnvironment: host.environment,
    ...(host.clock ? { clock: host.clock } : {}),
  });
  const mcp: McpHost = {
    // A role file choosing programs to run is code execution: none starts where the workspace is not trusted.
    allowed: host.trusted,
    cwd: workspace.root,
    environment: host.environment,
    get secrets() {
      return host.secrets();
    },
    // In the OS sandbox, with the workspace read-only, where commands run in one.
    sandbox: serverSandbox(commands),
  };
  const capabilities = teamCapabilities({ commands, mcp, ...(host.userChannel ? { userChannel: host.userChannel } : {}) });
  const inbox = new MessageInbox(taskManager);
  const toolbox = createWorkspaceToolbox({ workspace, changes, taskManager });
  const teams = new Map<string, AgentTeam>();
  return {
    roles: host.roles,
    taskManager,
    changes,
    inbox,
    commands,
    capabilities,
    team(settings = {}) {
      const key = JSON.stringify([settings.maxDepth, settings.autoBackgroundSeconds, settings.delegationReach, settings.confirmFanOutAbove]);
      let team = teams.get(key);
      if (!team) {
        team = new AgentTeam({
          taskManager,
          roles: host.roles,
          toolbox,
          inbox,
          capabilities,
          maxDepth: settings.maxDepth ?? defaultLimits.maxDepth,
          autoBackgroundMs: (settings.autoBackgroundSeconds ?? defaultLimits.autoBackgroundSeconds) * 1000,
          delegationReach: settings.delegationReach ?? 'own-tools',
          ...fanOutOf(host, settings.confirmFanOutAbove ?? defaultLimits.confirmFanOutAbove),
          describeChanges: (taskId) => describeTaskChanges(changes, taskId),
          environmentNote: host.environmentNote,
          keepSubagentConversations: host.keepSubagentConversations ?? false,
          a2a: remoteAgents(host),
          secrets: host.secrets,
          ...(host.conversations ? { conversations: host.conversations } : {}),
          ...(host.modelFor ? { modelFor: host.modelFor } : {}),
        });
        teams.clear();
        teams.set(key, team);
      }
      return team;
    },
    close: async () => {
      await Promise.allSettled(capabilities.map((capability) => capability.close?.()));
    },
  };
}

function fanOutOf(host: EngineHost, confirmAbove: number): { fanOut?: FanOutPolicy } {
  if (confirmAbove === Infinity) return {};
  return { fanOut: { confirmAbove, ...(host.confirmFanOut ? { confirm: host.confirmFanOut } : {}), ...(host.fanOutHowToAllow ? { howToAllow: host.fanOutHowToAllow } : {}) } };
}

/** Remote roles: not where the workspace is not trusted (a role file would send the task, and a token, where it chooses). */
function remoteAgents(host: EngineHost): A2aHost {
  return {
    allowed: host.trusted,
    get environment() {
      return host.remoteEnvironment?.() ?? host.environment;
    },
    get secrets() {
      return host.secrets();
    },
    ...(host.clock ? { clock: host.clock } : {}),
  };
}
