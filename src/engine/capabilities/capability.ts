/**
 * A capability is one thing agents may do beyond reading and proposing files: run commands, delegate, talk
 * to the user, use a role's MCP servers. Each lives in a folder of its own and exports one `Capability`;
 * the team takes a list of them (`team/capabilities.ts`), and every agent task asks each for its grant
 * when it starts. Adding a capability is one folder and one line in that list: nothing else in the engine
 * learns its name (docs/architecture.md, "Adding a capability").
 */
import type { StopCondition } from '../agent/stop-conditions.js';
import type { Tool } from '../agent/tool.js';
import type { AgentRunOptions } from '../agent/types.js';
import type { TaskTools } from '../file-tools/task-tools.js';
import type { McpServers } from '../roles/mcp-server-config.js';
import type { JsonSchema } from '../roles/json-schema.js';
import type { DelegatorTools, ToolName } from '../roles/tool-names.js';
import type { RoleMode } from '../roles/types.js';
import type { RoleOrigin } from '../roles/role-origin.js';
import type { TaskWorkContext } from '../tasks/work.js';

/** Who the agent of a task is, as far as capabilities need to know. */
export interface AgentProfile {
  role: string;
  /** The workspace tools its role lists (delegation tools are decided by `mayDelegate` and depth). */
  tools: readonly ToolName[];
  /** True when the role may delegate at all (depth still decides). */
  mayDelegate: boolean;
  /** What its subagents may be: roles within these tools, or `all` (the coordinator). */
  reach: DelegatorTools;
  /** 0 for a run's root agent, 1 for its subagents, …. */
  depth: number;
  /** How it relates to the user (seed 001). Default `single_turn`. */
  mode?: RoleMode;
  /** Its role's MCP servers. Default: none. */
  mcpServers?: McpServers;
  /** Its role's names of configured MCP servers' and VS Code's tools (RoleDefinition.serverTools). Default: none. */
  serverTools?: readonly string[];
  /** Who defined its role: the folder's own roles start servers only where it is trusted. Default: the folder (the safe side). */
  origin?: RoleOrigin;
  /** The shape its answer must have (its role's `outputSchema`). Default: any answer. */
  outputSchema?: JsonSchema;
}

/** One agent task, as a capability sees it when the task starts. */
export interface CapabilityTask {
  taskId: string;
  rootId: string;
  agent: AgentProfile;
  /** The task's own context: its signal, its transcript, its waits for the user. */
  context: TaskWorkContext;
  /** The task's view of the workspace: its file tools and the proposals it sees. */
  files: TaskTools;
  /** Replaces the engine's secrets in a text bound for the transcript (a command's output). */
  redact(text: string): string;
}

/** What a review of the user's prompt decided: refused (with why, for the user), or context to add. */
export interface PromptReview {
  refused?: string;
  /** Texts given to the model with the prompt. */
  context: string[];
}

/** What a capability gives one task. Every field is optional: a grant may only add instructions. */
export interface CapabilityGrant {
  tools?: readonly Tool[];
  /** Added to the system prompt, after the role's instruction. */
  instructions?: string;
  /** Written to the task's transcript as it starts (a server that did not start). */
  notices?: readonly string[];
  /** Notices for the agent before each turn after the first (instructions for a folder it began working in). */
  takeNotices?(): string[];
  /** Sees each turn's tool calls before any runs and may refuse some (see `AgentRunOptions`). */
  reviewToolCalls?: AgentRunOptions['reviewToolCalls'];
  /** Sees each turn's finished tool calls; returns notices for the agent's next turn (see `AgentRunOptions`). */
  afterToolCalls?: AgentRunOptions['afterToolCalls'];
  /** Called before the conversation is compacted (the `PreCompact` hook); it cannot prevent it. */
  beforeCompaction?: NonNullable<AgentRunOptions['context']>['beforeCompaction'];
  /**
   * How its part of the run ends or goes on (agent/stop-conditions.ts): a review that sends an answer back,
   * a request to end after a step, a chat's next message. Asked in the list's order, grant after grant.
   */
  stopWhen?: readonly StopCondition[];
  /** Sees the user's prompt (the run's, a follow-up's, a chat reply) before the agent does. */
  reviewUserPrompt?(prompt: string, signal: AbortSignal): Promise<PromptReview>;
  /** Called once when the task's agent has finished, however it finished (servers stop here). */
  release?(): Promise<void>;
}

export interface Capability {
  /** Names it in errors and in the docs. */
  readonly name: string;
  /** Its grant for one task; undefined when it gives this task nothing. A throw fails the task. */
  grant(task: CapabilityTask): CapabilityGrant | undefined | Promise<CapabilityGrant | undefined>;
  /** Releases what it holds for the engine's whole life (scratch copies). Default: nothing held. */
  close?(): Promise<void>;
}
