/**
 * The engine's front door: the CLI and the extension delegate through an `AgentTeam`. It ties the roles,
 * the models, the workspace tools and the task manager together; the task manager's event stream is what
 * callers watch.
 */
import { ConfigurationError } from '../errors.js';
import { describePrompt } from './describe-prompt.js';
import { MessageInbox } from '../conversation/message-inbox.js';
import type { UserChannel } from '../conversation/user-channel.js';
import type { ConversationStore } from '../conversation/conversation-store.js';
import type { Model, ModelMessage } from '../model/types.js';
import { isTerminal } from '../tasks/types.js';
import { type PlanEnvironment, planNodeWork } from '../planner/plan-node.js';
import { plannerName } from '../planner/planner-instructions.js';
import { workflowWork } from '../workflows/run-workflow.js';
import type { WorkflowDefinition } from '../workflows/workflow-definition.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { StartTaskResult, TaskWork } from '../tasks/work.js';
import type { RosterEntry } from './delegation/delegation-scope.js';
import { type DelegationReach, type DelegatorTools, toolsBeyondReach } from './delegation/delegation-reach.js';
import { coordinatorName } from './roles/coordinator.js';
import type { RoleRegistry } from './roles/role-registry.js';
import { resolveRoleTools } from './roles/role-tools.js';
import type { WorkspaceToolbox } from './task-tools.js';
import { TeamRun } from './team-run.js';
import type { McpHost } from '../mcp/mcp-role-tools.js';
import type { A2aHost } from '../a2a/remote-task-work.js';
import type { FanOutPolicy } from './delegation/fan-out.js';
import type { CommandHost } from '../commands/command-host.js';

export interface AgentTeamOptions {
  taskManager: TaskManager;
  roles: RoleRegistry;
  toolbox: WorkspaceToolbox;
  /** The models of a run that passes none (`DelegateRequest.modelFor`). Default: none, each run passes its own. */
  modelFor?: ModelChooser;
  /** Which roles an agent may delegate to (delegation-reach.ts). Default `own-tools`. */
  delegationReach?: DelegationReach;
  /** How `task` and `chat` agents reach the user. Default: none (they are told no user is available). */
  userChannel?: UserChannel;
  /** Messages for running tasks, shared by teams that replace one another. Default: one of its own. */
  inbox?: MessageInbox;
  /** Where runs' conversations are kept, for follow-ups. Default: none (a follow-up is refused). */
  conversations?: ConversationStore;
  /** Depth at which delegation stops: the coordinator is depth 0, its subagents 1, …. Default 3. */
  maxDepth?: number;
  /** How long a foreground `Agent` call waits before its subagent moves to the background. Default 120,000 ms. */
  autoBackgroundMs?: number;
  /** A line about a task's proposed edits, appended to its result for the parent. Default: none. */
  describeChanges?(taskId: string): string | undefined;
  /** Added to every system prompt so agents know where they are. Default: none. */
  environmentNote?: string;
  /** Keep every subagent's conversation too (not only runs'), so the user can ask one for changes. Default false. */
  keepSubagentConversations?: boolean;
  /** How roles' MCP servers start, and whether they may (not in Restricted Mode). Default: none start. */
  mcp?: McpHost;
  /** Whether roles with `a2a_url` may reach their remote agents, with what clock and limits. Default: none may. */
  a2a?: A2aHost;
  /** When one turn starting many subagents needs the user's yes (delegation/fan-out.ts). Default: never. */
  fanOut?: FanOutPolicy;
  /**
   * Where `Bash` runs commands and who allows them (src/engine/commands, `createCommandHost`). Default:
   * none; roles that list Bash go without it.
   */
  commands?: CommandHost;
  /**
   * The configured secrets (API keys, remote agents' tokens), read at each use: every tool result is
   * redacted of them where it enters, so no model, event, history, trace or server answer sees one.
   * Default: none (key-shaped values are still redacted).
   */
  secrets?: () => readonly string[];
}

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
  /** The models of this run (see `DelegateRequest.modelFor`). */
  modelFor?: ModelChooser;
}

export interface FollowUpRequest {
  /** The run to continue: its root task's id. */
  rootId: string;
  message: string;
  /** Default `foreground`. */
  mode?: 'foreground' | 'background';
  maxTokens?: number;
  /** See `DelegateRequest.awaitBackgroundTasks`. Default false. */
  awaitBackgroundTasks?: boolean;
  modelFor?: ModelChooser;
}

export interface PlanRequest {
  task: string;
  /** Levels of planning (a task at this depth is done by one agent). Default: the team's `maxDepth` (3). */
  maxDepth?: number;
  /** Sub-tasks per plan at most. Default 5. */
  maxSubtasks?: number;
  /** Default `foreground`. */
  mode?: 'foreground' | 'background';
  maxTokens?: number;
  modelFor?: ModelChooser;
}

/** Picks the model of each role: `override` is the role file's `model` field, when it has one. */
export type ModelChooser = (role: string, override?: string) => Model;

export interface DelegateRequest {
  /** What the user asked for. */
  prompt: string;
  /** A role to run directly instead of the coordinator. Default: the coordinator. */
  role?: string;
  /** A short title for the task list. Default: the start of the prompt. */
  description?: string;
  /** `foreground` resolves when the run ends; `background` at once. Default `foreground`. */
  mode?: 'foreground' | 'background';
  /** Token budget for the whole run (input + output, all subagents). Default: none. */
  maxTokens?: number;
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
  modelFor?: ModelChooser;
}

export class AgentTeam {
  /** Messages for running tasks: the user's (`sendMessage`) and the agents' (`SendMessage`). */
  readonly inbox: MessageInbox;
  private rosters: { roles: readonly unknown[] | undefined; byReach: Map<string, RosterEntry[]> } = { roles: undefined, byReach: new Map() };

  constructor(private readonly options: AgentTeamOptions) {
    this.inbox = options.inbox ?? new MessageInbox(options.taskManager);
  }

  /**
   * A message from the user to a running task, seen at its next turn. Throws a `TaskError` saying why
   * for an unknown or finished task.
   */
  sendMessage(taskId: string, message: string): void {
    this.inbox.deliver(taskId, 'the user', message);
  }

  get taskManager(): TaskManager {
    return this.options.taskManager;
  }

  /** The roles a subagent may take, as the coordinator's `Agent` tool lists them. */
  roster(): RosterEntry[] {
    return this.rosterFor('all');
  }

  /** Starts a run for the user: the coordinator, or one role directly. */
  async delegate(request: DelegateRequest): Promise<StartTaskResult> {
    const prompt = request.prompt.trim();
    if (prompt === '') throw new ConfigurationError('The task is empty: say what the agents should do.');
    const roleName = request.role ?? coordinatorName;
    const modelFor = request.modelFor ?? this.options.modelFor;
    if (!modelFor) throw new ConfigurationError('No model is set up for this run: choose a provider and a model first.');
    const run = new TeamRun(this.options, this.inbox, (delegator) => this.rosterFor(delegator), modelFor);
    const awaitBackground = request.awaitBackgroundTasks ?? false;
    let work: TaskWork;
    if (roleName === coordinatorName) {
      work = run.coordinatorWork(prompt, awaitBackground, { keepConversation: {} });
    } else {
      const role = this.options.roles.get(roleName);
      if (!role) {
        const known = this.options.roles.list().map((entry) => entry.name).join(', ');
        throw new ConfigurationError(`Unknown role "${roleName}". Known roles: ${known}.`);
      }
      work = run.roleWork(role, prompt, 0, awaitBackground, { keepConversation: {} });
    }
    return this.options.taskManager.start({
      parentId: null,
      role: roleName,
      description: request.description ?? describePrompt(prompt),
      prompt,
      mode: request.mode ?? 'foreground',
      maxTokens: request.maxTokens,
      work,
    });
  }

  /**
   * Starts a workflow run: the root task (role `workflow`, described by the workflow's name) runs the
   * steps as tasks below it. `workflows` resolves steps that run another workflow by name.
   */
  async runWorkflow(request: WorkflowRunRequest): Promise<StartTaskResult> {
    const input = request.input.trim();
    if (input === '') throw new ConfigurationError(`The workflow "${request.workflow.name}" needs an input: say what it should work on.`);
    const modelFor = request.modelFor ?? this.options.modelFor;
    if (!modelFor) throw new ConfigurationError('No model is set up for this run: choose a provider and a model first.');
    const run = new TeamRun(this.options, this.inbox, (delegator) => this.rosterFor(delegator), modelFor);
    const work = workflowWork(
      { taskManager: this.options.taskManager, agentWork: (role, prompt, tools) => run.stepWork(role, prompt, tools), workflows: request.workflows },
      request.workflow,
      input,
    );
    return this.options.taskManager.start({
      parentId: null,
      role: 'workflow',
      description: request.workflow.name,
      prompt: input,
      mode: request.mode ?? 'foreground',
      maxTokens: request.maxTokens,
      work,
    });
  }

  /**
   * Starts a planned run (the recursive planner): the root task (role `plan`) asks a planner how the task
   * is best done and unfolds the plan as tasks below it.
   */
  async plan(request: PlanRequest): Promise<StartTaskResult> {
    const task = request.task.trim();
    if (task === '') throw new ConfigurationError('The task is empty: say what the agents should do.');
    const modelFor = request.modelFor ?? this.options.modelFor;
    if (!modelFor) throw new ConfigurationError('No model is set up for this run: choose a provider and a model first.');
    const run = new TeamRun(this.options, this.inbox, (delegator) => this.rosterFor(delegator), modelFor);
    const roles = this.options.roles;
    const environment: PlanEnvironment = {
      taskManager: this.options.taskManager,
      maxDepth: request.maxDepth ?? this.options.maxDepth ?? 3,
      limits: { maxSubtasks: request.maxSubtasks ?? 5, hasRole: (name) => roles.get(name) !== undefined, roleNames: () => roles.list().map((role) => role.name) },
      plannerModel: modelFor(plannerName),
      agentWork: (role, prompt) => run.stepWork(role, prompt, []),
      synthesizerWork: (prompt) => run.synthesizerWork(prompt),
    };
    return this.options.taskManager.start({
      parentId: null,
      role: 'plan',
      description: describePrompt(task),
      prompt: task,
      mode: request.mode ?? 'foreground',
      maxTokens: request.maxTokens,
      work: planNodeWork(environment, { task }, 0),
    });
  }

  /**
   * Continues a finished run with the user's next message: a new turn of its root agent, with the whole
   * conversation it had (its context, its subagents' results), as a task under the run's root. Throws a
   * `ConfigurationError` saying why for a run that is unknown, still running, not a conversation (a
   * workflow or a plan), or whose conversation is no longer kept.
   */
  async followUp(request: FollowUpRequest): Promise<StartTaskResult> {
    const message = request.message.trim();
    if (message === '') throw new ConfigurationError('The follow-up is empty: say what to do next.');
    const root = this.options.taskManager.get(request.rootId);
    if (!root) throw new ConfigurationError(`There is no run ${request.rootId} in the history: it may have been cleared. Start a new run.`);
    if (root.parentId !== null) throw new ConfigurationError(`Task ${root.id} is part of run ${root.rootId}; follow up the run itself (${root.rootId}).`);
    if (!isTerminal(root.status)) throw new ConfigurationError(`Run ${root.id} is still running: send it a message instead, or wait for it to end.`);
    const role = root.role === coordinatorName ? undefined : this.options.roles.get(root.role);
    if (root.role !== coordinatorName && !role) {
      throw new ConfigurationError(`Run ${root.id} (${root.role}) is not a conversation that can go on; run it again with a new task.`);
    }
    const earlier = await this.options.conversations?.load(root.id);
    if (!earlier) throw new ConfigurationError(`The conversation of run ${root.id} is no longer kept (only the task list is); start a new run.`);
    const modelFor = request.modelFor ?? this.options.modelFor;
    if (!modelFor) throw new ConfigurationError('No model is set up for this run: choose a provider and a model first.');
    const run = new TeamRun(this.options, this.inbox, (delegator) => this.rosterFor(delegator), modelFor);
    const conversation: ModelMessage[] = [...earlier, { role: 'user', content: [{ type: 'text', text: message }] }];
    const keep = { keepConversation: { key: root.id } };
    const awaitBackground = request.awaitBackgroundTasks ?? false;
    return this.options.taskManager.start({
      parentId: root.id,
      followUp: true,
      role: root.role,
      description: `Follow-up: ${describePrompt(message, 48)}`,
      prompt: message,
      mode: request.mode ?? 'foreground',
      maxTokens: request.maxTokens,
      work: role ? run.roleWork(role, conversation, 0, awaitBackground, keep) : run.coordinatorWork(conversation, awaitBackground, keep),
    });
  }

  /**
   * Sends a finished subagent's work back with the user's comment: a new turn of the same agent, with its
   * whole conversation, whose edits go into the same change set (the proposal it made is revised in place,
   * so accepting it later applies one coherent change). It starts as a task under the one it revises.
   * Throws a `ConfigurationError` saying why for a task that is unknown, running, not a role's, or whose
   * conversation is not kept.
   */
  async requestChanges(request: RevisionRequest): Promise<StartTaskResult> {
    const comment = request.comment.trim();
    if (comment === '') throw new ConfigurationError('The request is empty: say what should change.');
    const task = this.options.taskManager.get(request.taskId);
    if (!task) throw new ConfigurationError(`There is no task ${request.taskId} in the history: it may have been cleared.`);
    if (!isTerminal(task.status)) throw new ConfigurationError(`Task ${task.id} is still running: send it a message instead, or wait for it to end.`);
    const role = this.options.roles.get(task.role);
    if (!role) throw new ConfigurationError(`Task ${task.id} (${task.role}) is not a subagent's work that can be revised; run it again with a new task.`);
    const earlier = await this.options.conversations?.load(task.id);
    if (!earlier) throw new ConfigurationError(`The conversation of task ${task.id} is no longer kept, so it cannot go on; delegate the change as a new task.`);
    const modelFor = request.modelFor ?? this.options.modelFor;
    if (!modelFor) throw new ConfigurationError('No model is set up for this run: choose a provider and a model first.');
    const run = new TeamRun(this.options, this.inbox, (delegator) => this.rosterFor(delegator), modelFor);
    const text = `The user reviewed your proposed changes and asks for changes:\n\n${comment}\n\nRevise your proposal accordingly; your edits change the same proposal.`;
    const conversation: ModelMessage[] = [...earlier, { role: 'user', content: [{ type: 'text', text }] }];
    return this.options.taskManager.start({
      parentId: task.id,
      followUp: true,
      role: task.role,
      description: `Revision: ${describePrompt(comment, 48)}`,
      prompt: comment,
      mode: request.mode ?? 'foreground',
      maxTokens: request.maxTokens,
      work: run.roleWork(role, conversation, task.depth + 1, false, { keepConversation: { key: task.id }, changeSetOf: task.id }),
    });
  }

  /** The roster as an agent with `delegator` tools sees it: roles beyond its reach are marked. */
  rosterFor(delegator: DelegatorTools): RosterEntry[] {
    const reach = this.options.delegationReach === 'any' ? 'all' : delegator;
    const roles = this.options.roles.list();
    // Every task that may delegate asks for its roster: built once per role list (the registry replaces
    // the list when a role file changes) and per reach, then shared (it is never changed).
    if (this.rosters.roles !== roles) this.rosters = { roles, byReach: new Map() };
    const key = reach === 'all' ? 'all' : reach.join(',');
    let roster = this.rosters.byReach.get(key);
    if (!roster) {
      roster = roles.map((role) => {
        const beyond = toolsBeyondReach(reach, resolveRoleTools(role));
        const entry: RosterEntry = { name: role.name, description: role.description, mode: role.mode };
        return beyond.length > 0 ? { ...entry, toolsBeyondReach: beyond } : entry;
      });
      this.rosters.byReach.set(key, roster);
    }
    return roster;
  }
}
