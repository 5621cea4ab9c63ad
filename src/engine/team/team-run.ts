/**
 * One run of the team: the models chosen when it started, used by every agent it starts, however much
 * later; and the work of each kind of agent (coordinator, role, synthesizer, workflow step).
 */
import type { Tool } from '../agent/tool.js';
import type { MessageInbox } from '../conversation/message-inbox.js';
import { delegationCapability } from '../delegation/delegation-capability.js';
import { withFallbacks } from '../model/failover-model.js';
import { resolveModelOverride } from '../model/model-aliases.js';
import type { Model, ModelMessage } from '../model/types.js';
import { planNodeWork } from '../planner/plan-node.js';
import { plannerName, synthesizerInstruction, synthesizerName } from '../planner/planner-instructions.js';
import type { TaskWork } from '../tasks/work.js';
import type { AgentTeamOptions, ModelChooser } from './team-options.js';
import { type AgentTaskEnvironment, agentTaskWork } from '../agent-tasks/agent-task-work.js';
import type { RosterEntry } from '../delegation/delegation-scope.js';
import type { DelegatorTools } from '../roles/tool-names.js';
import { defaultLimits } from '../limits.js';
import { coordinatorInstruction, coordinatorName, coordinatorTools } from '../roles/coordinator.js';
import { resolveRoleTools, roleMayDelegate } from '../roles/role-tools.js';
import { remoteTaskWork } from '../a2a/remote-task-work.js';
import { remoteHostFor } from './remote-gate.js';
import { roleOrigin } from '../roles/role-origin.js';
import type { RoleDefinition } from '../roles/types.js';
import { structuredResultCapability } from '../agent-tasks/structured-result-capability.js';
import { withRoleLimits } from '../agent-tasks/role-limits-work.js';

export interface WorkOptions {
  /** Default 0 (a run's root). */
  depth?: number;
  extraTools?: readonly Tool[];
  keepConversation?: { key?: string };
  /** The task whose change set the agent's edits go into (a revision's). Default: its own. */
  changeSetOf?: string;
  /** Narrows the agent's tools (DelegateRequest.allowedTools). Default: its role's. */
  allowedTools?: readonly string[];
}

export class TeamRun {
  private readonly environment: AgentTaskEnvironment;

  constructor(
    private readonly options: AgentTeamOptions,
    inbox: MessageInbox,
    rosterFor: (delegator: DelegatorTools) => RosterEntry[],
    private readonly modelFor: ModelChooser,
    /** Agent-team servers the request of this run passed through (DelegateRequest.a2aHops); its remote roles send it on. */
    private readonly a2aHops = 0,
  ) {
    this.environment = {
      taskManager: options.taskManager,
      toolbox: options.toolbox,
      // Delegation is every team's: its subagents are this run's, with this run's models.
      capabilities: [
        delegationCapability({
          taskManager: options.taskManager,
          roster: rosterFor,
          // Subagents' conversations are kept where the host asks for them: the user may ask one for changes.
          subagentWork: (role, prompt, depth) =>
            this.roleWork(
              options.roles.require(role),
              prompt,
              depth,
              false,
              options.keepSubagentConversations ? { keepConversation: {} } : {},
            ),
          maxDepth: options.maxDepth ?? defaultLimits.maxDepth,
          // Unset: the task manager's own option decides (one default, in the manager).
          ...(options.autoBackgroundMs === undefined ? {} : { autoBackgroundMs: options.autoBackgroundMs }),
          inbox,
          ...(options.describeChanges ? { describeChanges: options.describeChanges } : {}),
          ...(options.fanOut ? { fanOut: options.fanOut } : {}),
        }),
        ...(options.capabilities ?? []),
        // Last: its repair turn comes after what the others (a Stop hook) ask of the answer.
        structuredResultCapability(),
      ],
      inbox,
      ...(options.conversations ? { conversations: options.conversations } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
      ...(options.observeModel ? { observeModel: options.observeModel } : {}),
      ...(options.context ? { context: options.context } : {}),
    };
  }

  /**
   * The coordinator: at depth 0 for a run, or at depth 1 as one step of a workflow (it plans and delegates
   * that part on its own, and waits for its background subagents, since the workflow goes on after it).
   */
  coordinatorWork(prompt: string | ModelMessage[], awaitBackgroundTasks: boolean, options: WorkOptions = {}): TaskWork {
    return agentTaskWork(this.environment, {
      role: coordinatorName,
      system: this.withEnvironment(coordinatorInstruction),
      prompt,
      model: this.modelFor(coordinatorName),
      tools: coordinatorTools,
      reach: 'all',
      mayDelegate: true,
      depth: options.depth ?? 0,
      awaitBackgroundTasks,
      extraTools: options.extraTools,
      keepConversation: options.keepConversation,
      ...(options.allowedTools ? { allowedTools: options.allowedTools } : {}),
    });
  }

  /** A planned run's root (the recursive planner): a planner decides, the plan unfolds as tasks below it. */
  planWork(task: string, limits: { maxDepth: number; maxSubtasks: number }): TaskWork {
    const roles = this.options.roles;
    return planNodeWork(
      {
        taskManager: this.options.taskManager,
        maxDepth: limits.maxDepth,
        limits: {
          maxSubtasks: limits.maxSubtasks,
          hasRole: (name) => roles.get(name) !== undefined,
          roleNames: () => roles.list().map((role) => role.name),
        },
        plannerModel: this.modelFor(plannerName),
        agentWork: (role, prompt) => this.stepWork(role, prompt, []),
        synthesizerWork: (prompt) => this.synthesizerWork(prompt),
        // Read as the run starts, like the coordinator's (conversation/plan-capability.ts).
        ...(this.options.plans?.approvePlan?.() ? { approval: this.options.plans } : {}),
      },
      { task },
      0,
    );
  }

  /** The synthesizer of a plan: one call, no tools, that combines the results it is given. */
  synthesizerWork(prompt: string): TaskWork {
    return agentTaskWork(this.environment, {
      role: synthesizerName,
      system: this.withEnvironment(synthesizerInstruction),
      prompt,
      model: this.modelFor(synthesizerName),
      tools: [],
      reach: [],
      mayDelegate: false,
      depth: 1,
      maxTurns: 1,
    });
  }

  /** The work of a role (by name, or an inline agent's), for a step of a workflow (which adds tools of its own, like `ExitLoop`). */
  stepWork(role: string | RoleDefinition, prompt: string, extraTools: readonly Tool[]): TaskWork {
    // Agents of a workflow are the workflow's subagents: depth 1, whatever the groups around them.
    if (role === coordinatorName) return this.coordinatorWork(prompt, true, { depth: 1, extraTools });
    return this.roleWork(typeof role === 'string' ? this.options.roles.require(role) : role, prompt, 1, false, { extraTools });
  }

  roleWork(
    role: RoleDefinition,
    prompt: string | ModelMessage[],
    depth: number,
    awaitBackgroundTasks: boolean,
    options: WorkOptions = {},
  ): TaskWork {
    return withRoleLimits(this.unlimitedRoleWork(role, prompt, depth, awaitBackgroundTasks, options), role, prompt);
  }

  private unlimitedRoleWork(
    role: RoleDefinition,
    prompt: string | ModelMessage[],
    depth: number,
    awaitBackgroundTasks: boolean,
    options: WorkOptions,
  ): TaskWork {
    // A remote role's whole run happens on its agent: no local model, tools or subagents.
    if (role.a2aUrl !== undefined)
      return remoteTaskWork(remoteHostFor(this.options.a2a, role), {
        role: role.name,
        url: role.a2aUrl,
        authEnv: role.a2aAuthEnv,
        prompt,
        hops: this.a2aHops,
      });
    const mayDelegate = roleMayDelegate(role);
    const tools = resolveRoleTools(role);
    return agentTaskWork(this.environment, {
      role: role.name,
      system: this.withEnvironment(role.instruction),
      prompt,
      model: this.roleModel(role),
      tools,
      reach: tools,
      mayDelegate,
      depth,
      maxTurns: role.maxTurns,
      // A subagent waits for its background tasks unless its role hands them up (background-results.ts).
      awaitBackgroundTasks: awaitBackgroundTasks || (depth > 0 && role.backgroundTasks !== 'hand-to-parent'),
      extraTools: options.extraTools,
      keepConversation: options.keepConversation,
      changeSetOf: options.changeSetOf,
      ...(options.allowedTools ? { allowedTools: options.allowedTools } : {}),
      mcpServers: role.mcpServers,
      ...(role.serverTools ? { serverTools: role.serverTools } : {}),
      origin: roleOrigin(role),
      mode: role.mode,
      ...(role.outputSchema ? { outputSchema: role.outputSchema } : {}),
    });
  }

  /**
   * The role's own model when its file names one, then its `fallbackModels` (model failover), Claude Code's
   * aliases resolved for the run's provider; the run's own fallbacks come after the role's.
   */
  private roleModel(role: RoleDefinition): Model {
    const runs = this.modelFor(role.name);
    const override = resolveModelOverride(role.model, runs.provider);
    const chosen = override === undefined ? runs : this.modelFor(role.name, override);
    const fallbacks = (role.fallbackModels ?? []).flatMap((id) => {
      const resolved = resolveModelOverride(id, runs.provider);
      // An alias of another provider's family means the run's model, which is in the chain already.
      return resolved === undefined ? [] : [this.modelFor(role.name, resolved)];
    });
    return fallbacks.length === 0 ? chosen : withFallbacks(chosen, fallbacks);
  }

  private withEnvironment(instruction: string): string {
    const note = this.options.environmentNote;
    return note ? `${instruction}\n\n# Environment\n${note}` : instruction;
  }
}
