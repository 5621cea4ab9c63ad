import type { JsonSchema } from './json-schema.js';
import type { McpServers } from './mcp-server-config.js';
import type { PermissionMode } from './permission-mode.js';
import { type ToolName } from './tool-names.js';

/**
 * How a subagent relates to the user (after Google ADK's agent modes):
 * - `single_turn`: no user interaction; returns its result at once; several may run in parallel.
 * - `task`: works until its task is complete; may ask the user for clarification.
 * - `chat`: converses with the user until handed back.
 */
export type RoleMode = 'single_turn' | 'task' | 'chat';

export const roleModes: readonly RoleMode[] = ['single_turn', 'task', 'chat'];

/** The workspace file formats, in precedence order (first wins when two define the same name). */
export type RoleFileFormat = 'agent-team' | 'claude' | 'github';

/** Where a role was defined. `path` is relative to the workspace root, with `/` separators. */
export type RoleSource = { kind: 'built-in' } | { kind: 'file'; path: string; format: RoleFileFormat };

/** One subagent type the coordinator (or the user, with `--agent`) can run. */
export interface RoleDefinition {
  /** The identifier used as the `Agent` tool's `subagent_type`, e.g. `researcher`. */
  name: string;
  /** When to use this role; shown to the coordinator in the `Agent` tool's description. */
  description: string;
  /** The system prompt body. */
  instruction: string;
  /**
   * Allowlist of tools. Undefined means the role's defaults (`defaultWorkspaceRoleTools`); an empty list
   * means no tools. See `resolveRoleTools`.
   */
  tools?: readonly ToolName[];
  /** Model id override, passed through as written (`sonnet`, `claude-sonnet-4-5`, …). Default: the run's model. */
  model?: string;
  /**
   * Models its tasks go on with, in order, when `model` is down (an outage, after retries), before the
   * run's own `--fallback-model`s. Default: none.
   */
  fallbackModels?: readonly string[];
  /** Default `task`. */
  mode: RoleMode;
  /**
   * Its background tasks still running when it answers (`backgroundTasks`, background-tasks-field.ts): waited
   * for (`wait`), or handed to the agent that started it (`hand-to-parent`). Default `wait`.
   */
  backgroundTasks?: 'wait' | 'hand-to-parent';
  /** Model turns at most. Default: the agent loop's (50). */
  maxTurns?: number;
  /** MCP servers whose tools this role gets as `mcp__<server>__<tool>` (Claude Code's `mcpServers`). */
  mcpServers?: McpServers;
  /**
   * Tools of MCP servers the workspace or the user configured (`mcp__<server>__<tool>`, `mcp__<server>__*`)
   * and VS Code's registered tools (`vscode__<tool>`, `vscode__*`) its `tools` names (server-tool-names.ts).
   * Default: none.
   */
  serverTools?: readonly string[];
  /**
   * The address of a remote A2A agent this role runs on (front matter `a2a_url`), instead of a local model.
   * Such a role has no local tools, MCP servers, model or turns. Default: the role runs locally.
   */
  a2aUrl?: string;
  /** The environment variable holding the remote agent's bearer token (`a2a_auth_env`). Default: none sent. */
  a2aAuthEnv?: string;
  /**
   * Tokens (input + output) the role's task and all its subtasks may spend together (`maxTokens`, adk-fluent's
   * `max_tokens`): past it, that subtree is stopped with reason `budget`, the rest of the run goes on.
   * Default: only the run's budget applies.
   */
  maxTokens?: number;
  /**
   * Claude Code's `permissionMode`. `plan` makes the role read-only (see `permittedTools`); the others
   * change nothing (edits are always reviewed, commands always the user's to allow). Default: none.
   */
  permissionMode?: PermissionMode;
  /**
   * The shape of the role's answer: its task must end with JSON that validates (one repair turn, then it
   * fails), and that JSON is its result. Default: any answer.
   */
  outputSchema?: JsonSchema;
  /** The shape of the prompt the role takes: a prompt that is not JSON matching it is refused. Default: any prompt. */
  inputSchema?: JsonSchema;
  /** Free-form data about the role (adk-fluent's and Copilot's `metadata`), kept and shown. Default: none. */
  metadata?: Readonly<Record<string, unknown>>;
  source: RoleSource;
  /**
   * Definitions of the same name this one hides, highest precedence first: a built-in, or a file in a
   * lower-precedence format. Absent when it hides nothing.
   */
  overridden?: readonly RoleSource[];
}

/** A problem with one role file. Errors mean the file was skipped; warnings mean it loaded with a caveat. */
export interface RoleDiagnostic {
  /** Relative to the workspace root, with `/` separators. */
  path: string;
  severity: 'error' | 'warning';
  /** Says what is wrong and, where it helps, how to fix it. */
  message: string;
  /** 1-based line in the file, when known. */
  line?: number;
}

export interface RoleLoadResult {
  /** Built-ins (in their fixed order, replaced in place when overridden), then workspace roles. */
  roles: readonly RoleDefinition[];
  diagnostics: readonly RoleDiagnostic[];
}
