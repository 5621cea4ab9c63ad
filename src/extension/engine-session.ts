/**
 * The engine for one workspace folder, built on first use (the first delegation or role list), never at
 * activation: the folder's `Workspace`, and `createEngine` over the window's ports, which builds its roles
 * (watched) and the `AgentTeam` that delegates. The engine's core (the task manager and the change sets)
 * lives longer (the sidebar shows it from activation on): the host builds it with `createEngineCore`, and
 * the engine owns it from then on, its shutdown included.
 */
import { homedir } from 'node:os';
import {
  type AgentTeam,
  type ConversationStore,
  createEngine,
  type DelegateRequest,
  type Engine,
  type FollowUpRequest,
  formatRoleDiagnostic,
  loadWorkflows,
  MemoryConversationStore,
  type ModelChooser,
  onceEach,
  type PlanRequest,
  type ResumeRequest,
  type RevisionRequest,
  type RoleDefinition,
  type RoleDiagnostic,
  type RoleRegistry,
  type StartTaskResult,
  type TaskSnapshot,
  type WorkflowEntry,
  workflowRoles,
  type WorkflowRunRequest,
} from '../engine/index.js';
import type { AgentTeamSettings } from './configuration.js';
import type { HostWorkspace } from './host-workspace.js';
import { createModelFor, type ModelSetup } from './model-setup.js';
import { checkBudgetPrices } from './budget-prices.js';
import { HostRoleFileSource, watchWorkflowFiles } from './role-source.js';
import { HostUserChannel } from './host-user-channel.js';
import { RoleProblems } from './role-problems.js';
import { sessionEngineHost } from './session-engine-host.js';
import type { HostCommandApproval } from './host-command-approval.js';
import type { ChecksService } from './checks/run-checks.js';

import type { EngineSessionOptions } from './engine-session-options.js';

export type { EngineSessionOptions } from './engine-session-options.js';

export class EngineSession {
  readonly workspace: HostWorkspace;
  /** Questions of task and chat agents, answered from the sidebar. */
  readonly userChannel = new HostUserChannel();
  /** Commands agents want to run, allowed from the sidebar or a notification. */
  readonly commandApproval: HostCommandApproval;
  private readonly engine: Engine;
  /** Runs' conversations, for follow-ups: in the workspace storage, so a follow-up after a reload has them. */
  private readonly conversations: ConversationStore;
  readonly roles: RoleRegistry;
  private readonly stopLoggingRoles: () => void;
  private stopWatchingWorkflows: () => void = () => {};
  /** Role-file problems in the Problems view. */
  private readonly problems: RoleProblems;
  /** The provider SDK's notices (a deprecated model), logged once each for the session, not per request. */
  private readonly providerNotices = onceEach((notice) => this.options.log.warn(notice));

  private constructor(private readonly options: EngineSessionOptions) {
    this.workspace = options.workspace;
    const home = options.environment?.HOME ?? homedir();
    this.problems = new RoleProblems(options.folder.uri, home);
    this.commandApproval = options.commandApproval;
    this.conversations = options.conversations ?? new MemoryConversationStore();
    this.engine = createEngine(
      sessionEngineHost(options, {
        workspace: this.workspace,
        home,
        userChannel: this.userChannel,
        commandApproval: this.commandApproval,
        conversations: this.conversations,
      }),
    );
    this.roles = this.engine.roles;
    this.stopLoggingRoles = this.roles.onDidChange((result) => {
      this.logRoleProblems(result.diagnostics);
      // A workflow names roles: whether its steps are sound can change with them.
      void this.listWorkflows().catch(() => undefined);
      void this.loadRemoteTokens(result.roles);
    });
  }

  /** Builds the session and opens its engine: reads the role files once, starts telemetry. */
  static async create(options: EngineSessionOptions): Promise<EngineSession> {
    const session = new EngineSession(options);
    const loaded = await session.engine.open();
    session.logRoleProblems(loaded.diagnostics);
    await session.listWorkflows().catch((error: unknown) => options.log.warn(`Reading the workflow files failed: ${String(error)}`));
    session.stopWatchingWorkflows = watchWorkflowFiles(options.folder, () => void session.listWorkflows().catch(() => undefined));
    await session.loadRemoteTokens(loaded.roles);
    return session;
  }

  /** The engine's checks service (issue 40): the extension's views run it on runs' proposals. */
  checksService(): ChecksService {
    return this.engine.checks;
  }

  /** The roles a user can run directly (the coordinator is offered separately). */
  listRoles(): readonly RoleDefinition[] {
    return this.roles.list();
  }

  /**
   * Starts a delegation with the given model setup, which every subagent of this run uses however long it
   * runs (a later delegation with other settings does not change it). Throws `ConfigurationError` when the
   * setup cannot build a model.
   */
  delegate(request: DelegateRequest, setup: ModelSetup, settings: AgentTeamSettings): Promise<StartTaskResult> {
    return this.teamFor(settings).delegate({ ...this.budgetFor(settings, setup), ...request, modelFor: this.modelsOf(setup) });
  }

  /** The workflows of `.agent-team/workflows`, each with its problems (read anew each time: files change). */
  async listWorkflows(): Promise<WorkflowEntry[]> {
    const entries = await loadWorkflows(new HostRoleFileSource(this.options.folder.uri), workflowRoles(this.roles));
    this.problems.showWorkflows(entries.flatMap((entry) => entry.problems));
    return entries;
  }

  /** Starts a workflow run with the models of `setup`, fixed for the whole run. */
  runWorkflow(request: WorkflowRunRequest, setup: ModelSetup, settings: AgentTeamSettings): Promise<StartTaskResult> {
    return this.teamFor(settings).runWorkflow({ ...this.budgetFor(settings, setup), ...request, modelFor: this.modelsOf(setup) });
  }

  /** Sends a finished subagent's proposal back with the user's comment (see `AgentTeam.requestChanges`). */
  requestChanges(request: RevisionRequest, setup: ModelSetup, settings: AgentTeamSettings): Promise<StartTaskResult> {
    return this.teamFor(settings).requestChanges({ ...this.budgetFor(settings, setup), ...request, modelFor: this.modelsOf(setup) });
  }

  /** Resumes a run's interrupted tasks (see `AgentTeam.resume`) with the models of `setup`. */
  resume(request: ResumeRequest, setup: ModelSetup, settings: AgentTeamSettings): Promise<TaskSnapshot[]> {
    return this.teamFor(settings).resume({ ...request, modelFor: this.modelsOf(setup) });
  }

  /** Continues a finished run with the user's next message, with the models of `setup`. */
  followUp(request: FollowUpRequest, setup: ModelSetup, settings: AgentTeamSettings): Promise<StartTaskResult> {
    return this.teamFor(settings).followUp({ ...this.budgetFor(settings, setup), ...request, modelFor: this.modelsOf(setup) });
  }

  /** Starts a planned run (the recursive planner) with the models of `setup`. */
  plan(request: PlanRequest, setup: ModelSetup, settings: AgentTeamSettings): Promise<StartTaskResult> {
    return this.teamFor(settings).plan({
      maxSubtasks: settings.maxSubtasks,
      ...this.budgetFor(settings, setup),
      ...request,
      modelFor: this.modelsOf(setup),
    });
  }

  /**
   * What the user writes in a task's detail view: the answer to the question it waits on, or else a
   * message it reads at its next turn. Throws a `TaskError` saying why for a finished or unknown task.
   */
  sendToTask(taskId: string, text: string): 'answered' | 'delivered' {
    if (this.userChannel.answer(taskId, text)) return 'answered';
    this.engine.inbox.deliver(taskId, 'the user', text);
    return 'delivered';
  }

  /** The run's budgets; a money budget over a model with no price refuses to start (budget-prices.ts). */
  private budgetFor(settings: AgentTeamSettings, setup: ModelSetup): { maxTokens?: number; maxUsd?: number } {
    if (this.options.priceOf) checkBudgetPrices(settings.budgetUsd, setup, this.roles.list(), this.options.priceOf);
    return budgetOf(settings);
  }

  /** The models of a run: every role's, from the setup it started with. */
  private modelsOf(setup: ModelSetup): ModelChooser {
    const { environment, clock } = this.options;
    return (role, override) =>
      createModelFor(setup, role, override, {
        ...(environment ? { environment } : {}),
        ...(clock ? { clock } : {}),
        onNotice: this.providerNotices,
      });
  }

  /** Stops the views' listeners; the engine itself ends with the host's `close()` (the engine's one shutdown). */
  dispose(): void {
    this.stopLoggingRoles();
    this.stopWatchingWorkflows();
    this.problems.dispose();
    void this.engine.close();
  }

  /** The team with the limits of `settings` (the engine keeps one per combination). */
  private teamFor(settings: AgentTeamSettings): AgentTeam {
    return this.engine.team({
      maxDepth: settings.maxDepth,
      autoBackgroundSeconds: settings.autoBackgroundSeconds,
      delegationReach: settings.delegationReach,
      confirmFanOutAbove: settings.confirmFanOutAbove,
    });
  }

  /** The tokens the roles name, read ahead: a remote task reads its token without waiting. */
  private loadRemoteTokens(roles: readonly RoleDefinition[]): Promise<void> {
    return this.options.remoteTokens?.load(roles.flatMap((role) => (role.a2aAuthEnv ? [role.a2aAuthEnv] : []))) ?? Promise.resolve();
  }

  private logRoleProblems(diagnostics: readonly RoleDiagnostic[]): void {
    this.problems.show(diagnostics);
    for (const diagnostic of diagnostics) {
      const line = `Role file ${formatRoleDiagnostic(diagnostic)}`;
      if (diagnostic.severity === 'error') this.options.log.error(line);
      else this.options.log.warn(line);
    }
  }
}

/** `agentTeam.budgetTokens` and `agentTeam.budgetUsd` for a run, unless the request brings its own budget. */
function budgetOf(settings: AgentTeamSettings): { maxTokens?: number; maxUsd?: number } {
  return {
    ...(settings.budgetTokens > 0 ? { maxTokens: settings.budgetTokens } : {}),
    ...(settings.budgetUsd > 0 ? { maxUsd: settings.budgetUsd } : {}),
  };
}
