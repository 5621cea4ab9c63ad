/** What callers of an `AgentTeam` ask for: a delegation, a workflow, a plan, a follow-up, a revision. */
import type { ImagePart } from '../model/types.js';
import type { WorkflowDefinition } from '../workflows/workflow-definition.js';
import type { ModelChooser } from './team-options.js';

export interface WorkflowRunRequest {
  workflow: WorkflowDefinition;
  /** What the workflow works on: its `{input}`. */
  input: string;
  /** Every sound workflow of the workspace, by name. */
  workflows: ReadonlyMap<string, WorkflowDefinition>;
  /** Default `foreground`. */
  mode?: 'foreground' | 'background';
  /** Token budget for the whole run. Default: none. */
  maxTokens?: number;
  /** Money budget (US dollars) for the whole run, at the models' prices. Default: none. */
  maxUsd?: number;
  /** The models of this run (see `DelegateRequest.modelFor`). */
  modelFor?: ModelChooser;
}

export interface FollowUpRequest {
  /** The run to continue: its root task's id. */
  rootId: string;
  message: string;
  /** Images the user attached to the message, for the root agent only (`userMessageWithImages`). Default: none. */
  images?: readonly ImagePart[];
  /** Default `foreground`. */
  mode?: 'foreground' | 'background';
  maxTokens?: number;
  /** Money budget (US dollars) for the whole run, at the models' prices. Default: none. */
  maxUsd?: number;
  /** See `DelegateRequest.awaitBackgroundTasks`. Default false. */
  awaitBackgroundTasks?: boolean;
  modelFor?: ModelChooser;
}

export interface PlanRequest {
  task: string;
  /** Levels of planning (a task at this depth is done by one agent). Default: the team's `maxDepth` (3). */
  maxDepth?: number;
  /** Sub-tasks per plan at most. Default: `defaultLimits.maxSubtasks` (limits.ts). */
  maxSubtasks?: number;
  /** Default `foreground`. */
  mode?: 'foreground' | 'background';
  maxTokens?: number;
  /** Money budget (US dollars) for the whole run, at the models' prices. Default: none. */
  maxUsd?: number;
  modelFor?: ModelChooser;
}

export interface DelegateRequest {
  /** What the user asked for. */
  prompt: string;
  /** Images the user attached, for the root agent only (`userMessageWithImages`). Default: none. */
  images?: readonly ImagePart[];
  /** A role to run directly instead of the coordinator. Default: the coordinator. */
  role?: string;
  /**
   * For a run an A2A server starts: how many agent-team servers its request has passed through, this one
   * included (a2a/hop-count.ts). The run's remote roles send it on. Default 0: the user started the run.
   */
  a2aHops?: number;
  /** A short title for the task list. Default: the start of the prompt. */
  description?: string;
  /**
   * Narrows the run's root agent to these tools, never widening its role's (a prompt file's `tools` /
   * `allowed-tools`), in Claude Code's form: names, `mcp__server__*`, `Bash(git status:*)`. The tools
   * that end a task stay (skills/tool-allowance.ts). Its subagents keep their roles' tools. Default: the role's.
   */
  allowedTools?: readonly string[];
  /** `foreground` resolves when the run ends; `background` at once. Default `foreground`. */
  mode?: 'foreground' | 'background';
  /** Token budget for the whole run (input + output, all subagents). Default: none. */
  maxTokens?: number;
  /** Money budget (US dollars) for the whole run, at the models' prices. Default: none. */
  maxUsd?: number;
  /** See `AgentTaskSpec.awaitBackgroundTasks`. Default false. */
  awaitBackgroundTasks?: boolean;
  /**
   * The models of this run, fixed when it starts: every subagent it starts later, however much later,
   * uses this chooser, so changing the settings mid-run never changes a running tree's models.
   * Default: the team's `modelFor`.
   */
  modelFor?: ModelChooser;
}

export interface RevisionRequest {
  /** The finished task whose proposal to revise. */
  taskId: string;
  /** What the user wants changed. */
  comment: string;
  /** Default `foreground`. */
  mode?: 'foreground' | 'background';
  maxTokens?: number;
  /** Money budget (US dollars) for the whole run, at the models' prices. Default: none. */
  maxUsd?: number;
  modelFor?: ModelChooser;
}
