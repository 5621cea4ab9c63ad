/** What an agent task is given: the environment every task shares, and its own spec (agent-task-work.ts). */
import type { Tool } from '../agent/tool.js';
import type { ContextPolicy } from '../agent/compaction/context-policy.js';
import type { AgentProfile, Capability } from '../capabilities/capability.js';
import type { ConversationStore } from '../conversation/conversation-store.js';
import type { MessageInbox } from '../conversation/message-inbox.js';
import type { WorkspaceToolbox } from '../file-tools/task-tools.js';
import type { Model, ModelMessage } from '../model/types.js';
import type { TaskManager } from '../tasks/task-manager.js';

/** Everything an agent task needs that does not change from one task to the next. */
export interface AgentTaskEnvironment {
  taskManager: TaskManager;
  /** Each task's view of the workspace: its file tools and the proposals it sees. */
  toolbox: WorkspaceToolbox;
  /** What agents may do beyond files, asked in this order (team/capabilities.ts). */
  capabilities: readonly Capability[];
  /** Messages for running tasks (the user's, and `SendMessage`'s), seen at each task's next turn. */
  inbox: MessageInbox;
  /** Where runs' conversations are kept for follow-ups. Default: none (runs cannot be followed up). */
  conversations?: ConversationStore;
  /** The secrets kept out of every tool result (AgentTeamOptions.secrets). */
  secrets?: () => readonly string[];
  /** Wraps the task's model, to observe its requests (AgentTeamOptions.observeModel). Default: none. */
  observeModel?: (taskId: string, model: Model) => Model;
  /** The models' context windows and when to compact (AgentTeamOptions.context). Default: no window known. */
  context?: ContextPolicy;
}

/** One agent as a task: who it is and how it may work. */
export interface AgentTaskSpec extends AgentProfile {
  system: string;
  /** The task, or (a follow-up) the conversation to continue, ending with the user's new message. */
  prompt: string | ModelMessage[];
  /**
   * Keep the conversation when the run ends, for follow-ups: under `key`, or the task's own id when no
   * key is given (a run's root; a follow-up saves under its run's root). Default: not kept.
   */
  keepConversation?: { key?: string };
  /** The task whose change set this agent's edits go into (a revision's). Default: its own. */
  changeSetOf?: string;
  model: Model;
  maxTurns?: number;
  /** Tools beyond the role's own, for this task only (a workflow loop's `ExitLoop`). Default: none. */
  extraTools?: readonly Tool[];
  /** Narrows this agent's tools, never widens them (a prompt file's `tools`: narrowed-tools.ts). Default: its own tools. */
  allowedTools?: readonly string[];
  /**
   * When the agent gives its final answer while background tasks whose notices come to it still run
   * (background-results.ts): true waits for them and lets the agent update its answer with their results
   * (subagents unless their role hands them up, and the CLI's root, where nobody is left to hear of them
   * later); false ends at once and their notices go to its parent (a role's `backgroundTasks:
   * hand-to-parent`) or, for a root, to the user (the extension, whose sidebar shows them). Default false.
   */
  awaitBackgroundTasks?: boolean;
}
