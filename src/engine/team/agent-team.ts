/**
 * The engine's front door: the CLI and the extension delegate through an `AgentTeam`. It ties the roles,
 * the models, the workspace tools and the task manager together; the task manager's event stream is what
 * callers watch.
 */
import { ConfigurationError } from '../errors.js';
import type { Model } from '../model/types.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { StartTaskResult, TaskWork } from '../tasks/work.js';
import { type AgentTaskEnvironment, agentTaskWork } from './agent-task-work.js';
import type { RosterEntry } from './delegation/delegation-scope.js';
import { coordinatorInstruction, coordinatorName, coordinatorTools } from './roles/coordinator.js';
import type { RoleRegistry } from './roles/role-registry.js';
import { resolveRoleTools } from './roles/role-tools.js';
import type { RoleDefinition } from './roles/types.js';
import type { WorkspaceToolbox } from './task-tools.js';

export interface AgentTeamOptions {
  taskManager: TaskManager;
  roles: RoleRegistry;
  toolbox: WorkspaceToolbox;
  /** The model for a role: `override` is the role file's `model` field, when it has one. */
  modelFor(role: string, override?: string): Model;
  /** Depth at which delegation stops: the coordinator is depth 0, its subagents 1, …. Default 3. */
  maxDepth?: number;
  /** How long a foreground `Agent` call waits before its subagent moves to the background. Default 120,000 ms. */
  autoBackgroundMs?: number;
  /** A line about a task's proposed edits, appended to its result for the parent. Default: none. */
  describeChanges?(taskId: string): string | undefined;
  /** Added to every system prompt so agents know where they are. Default: none. */
  environmentNote?: string;
}

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
}

export class AgentTeam {
  private readonly environment: AgentTaskEnvironment;

  constructor(private readonly options: AgentTeamOptions) {
    this.environment = {
      taskManager: options.taskManager,
      toolbox: options.toolbox,
      roster: () => this.roster(),
      subagentWork: (role, prompt, depth) => this.roleWork(this.options.roles.require(role), prompt, depth, false),
      describeChanges: options.describeChanges,
      maxDepth: options.maxDepth ?? 3,
      autoBackgroundMs: options.autoBackgroundMs ?? 120_000,
    };
  }

  get taskManager(): TaskManager {
    return this.options.taskManager;
  }

  /** The roles a subagent may take, as the `Agent` tool lists them. */
  roster(): RosterEntry[] {
    return this.options.roles.list().map((role) => ({ name: role.name, description: role.description }));
  }

  /** Starts a run for the user: the coordinator, or one role directly. */
  async delegate(request: DelegateRequest): Promise<StartTaskResult> {
    const prompt = request.prompt.trim();
    if (prompt === '') throw new ConfigurationError('The task is empty: say what the agents should do.');
    const roleName = request.role ?? coordinatorName;
    const awaitBackground = request.awaitBackgroundTasks ?? false;
    let work: TaskWork;
    if (roleName === coordinatorName) {
      work = this.coordinatorWork(prompt, awaitBackground);
    } else {
      const role = this.options.roles.get(roleName);
      if (!role) {
        const known = this.options.roles.list().map((entry) => entry.name).join(', ');
        throw new ConfigurationError(`Unknown role "${roleName}". Known roles: ${known}.`);
      }
      work = this.roleWork(role, prompt, 0, awaitBackground);
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

  private coordinatorWork(prompt: string, awaitBackgroundTasks: boolean): TaskWork {
    return agentTaskWork(this.environment, {
      role: coordinatorName,
      system: this.withEnvironment(coordinatorInstruction),
      prompt,
      model: this.options.modelFor(coordinatorName),
      tools: coordinatorTools,
      mayDelegate: true,
      depth: 0,
      awaitBackgroundTasks,
    });
  }

  private roleWork(role: RoleDefinition, prompt: string, depth: number, awaitBackgroundTasks: boolean): TaskWork {
    // Built-in roles and roles that name no tools may delegate (depth permitting); a role file with an
    // explicit tool list delegates only if it lists Agent.
    const mayDelegate = role.source.kind === 'built-in' || role.tools === undefined || role.tools.includes('Agent');
    return agentTaskWork(this.environment, {
      role: role.name,
      system: this.withEnvironment(role.instruction),
      prompt,
      model: this.options.modelFor(role.name, role.model),
      tools: resolveRoleTools(role),
      mayDelegate,
      depth,
      maxTurns: role.maxTurns,
      awaitBackgroundTasks,
    });
  }

  private withEnvironment(instruction: string): string {
    return this.options.environmentNote ? `${instruction}\n\n# Environment\n${this.options.environmentNote}` : instruction;
  }
}

/** A short title from the prompt's first line, for the task list. */
export function describePrompt(prompt: string, maxLength = 60): string {
  const firstLine = prompt.split('\n').find((line) => line.trim() !== '')?.trim() ?? prompt.trim();
  return firstLine.length <= maxLength ? firstLine : `${firstLine.slice(0, maxLength - 1).trimEnd()}…`;
}
