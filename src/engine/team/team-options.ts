/** What an `AgentTeam` is built from: the parts every run of it shares. */
import type { Capability } from '../capabilities/capability.js';
import type { ConversationStore } from '../conversation/conversation-store.js';
import type { MessageInbox } from '../conversation/message-inbox.js';
import type { DelegationReach } from '../delegation/delegation-reach.js';
import type { FanOutPolicy } from '../delegation/fan-out.js';
import type { WorkspaceToolbox } from '../file-tools/task-tools.js';
import type { A2aHost } from '../a2a/remote-task-work.js';
import type { Model } from '../model/types.js';
import type { ContextPolicy } from '../agent/compaction/context-policy.js';
import type { RoleRegistry } from '../roles/role-registry.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { PlanSettings } from '../conversation/plan-capability.js';

export interface AgentTeamOptions {
  taskManager: TaskManager;
  roles: RoleRegistry;
  toolbox: WorkspaceToolbox;
  /** The models of a run that passes none (`DelegateRequest.modelFor`). Default: none, each run passes its own. */
  modelFor?: ModelChooser;
  /** Which roles an agent may delegate to (delegation-reach.ts). Default `own-tools`. */
  delegationReach?: DelegationReach;
  /** Messages for running tasks, shared by teams that replace one another. Default: one of its own. */
  inbox?: MessageInbox;
  /** Wraps each agent task's model (OpenTelemetry's `chat` spans, telemetry/). Default: the model as it is. */
  observeModel?: (taskId: string, model: Model) => Model;
  /** The models' context windows and when conversations are compacted. Default: no window known (compaction only on a context-length error). */
  context?: ContextPolicy;
  /** Where runs' conversations are kept, for follow-ups. Default: none (a follow-up is refused). */
  conversations?: ConversationStore;
  /** Depth at which delegation stops: the coordinator is depth 0, its subagents 1, …. Default: `defaultLimits.maxDepth` (limits.ts). */
  maxDepth?: number;
  /** How long a foreground `Agent` call waits before its subagent moves to the background. Default: the task manager's (`TaskManagerOptions.autoBackgroundMs`). */
  autoBackgroundMs?: number;
  /** A line about a task's proposed edits, appended to its result for the parent. Default: none. */
  describeChanges?(taskId: string): string | undefined;
  /** Added to every system prompt so agents know where they are. Default: none. */
  environmentNote?: string;
  /** Keep every subagent's conversation too (not only runs'), so the user can ask one for changes. Default false. */
  keepSubagentConversations?: boolean;
  /** Whether roles with `a2a_url` may reach their remote agents, with what clock and limits. Default: none may. */
  a2a?: A2aHost;
  /**
   * What agents may do beyond files, besides delegation (which every team has): commands, MCP servers,
   * talking to the user, … (team/capabilities.ts). Default: none.
   */
  capabilities?: readonly Capability[];
  /** When one turn starting many subagents needs the user's yes (delegation/fan-out.ts). Default: never. */
  fanOut?: FanOutPolicy;
  /** Whether (and how) a planned run's plan is approved before its sub-tasks start (conversation/plan-capability.ts). Default: it is not asked about. */
  plans?: PlanSettings;
  /**
   * The configured secrets (API keys, remote agents' tokens), read at each use: every tool result is
   * redacted of them where it enters, so no model, event, history, trace or server answer sees one.
   * Default: none (key-shaped values are still redacted).
   */
  secrets?: () => readonly string[];
}

/** Picks the model of each role: `override` is the role file's `model` field, when it has one. */
export type ModelChooser = (role: string, override?: string) => Model;
