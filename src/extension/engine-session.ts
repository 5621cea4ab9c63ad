/**
 * The engine for one workspace folder, built on first use (the first delegation or role list), never at
 * activation: the folder's `Workspace`, its roles (watched), and the `AgentTeam` that delegates. The task
 * manager and the change sets live longer (the sidebar shows them from activation on) and are passed in.
 */
import { SettingContextWindows } from './context-window-setting.js';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { NodeRoleFileSource } from '../engine/roles/node-role-file-source.js';
import type { ChangeSetRegistry } from '../engine/changes/registry.js';
import type { StartTaskResult, TaskManager } from '../engine/tasks/index.js';
import type {
  AgentTeam,
  DelegateRequest,
  FollowUpRequest,
  PlanRequest,
  ResumeRequest,
  RevisionRequest,
  WorkflowRunRequest,
} from '../engine/team/agent-team.js';
import type { TaskSnapshot } from '../engine/tasks/types.js';
import { type ConversationStore, MemoryConversationStore } from '../engine/conversation/conversation-store.js';
import { type WorkflowEntry, loadWorkflows } from '../engine/workflows/workflow-registry.js';
import { workflowRoles } from '../engine/workflows/workflow-roles.js';
import { formatRoleDiagnostic, type RoleDefinition, type RoleDiagnostic, RoleRegistry } from '../engine/roles/index.js';
import type { Clock } from '../engine/clock.js';
import type { ModelChooser } from '../engine/team/agent-team.js';
import type { AgentTeamSettings } from './configuration.js';
import type { HostWorkspace } from './host-workspace.js';
import { createModelFor, type ModelSetup } from './model-setup.js';
import { checkBudgetPrices } from './budget-prices.js';
import { onceEach } from '../engine/model/provider-notices.js';
import type { ModelPrice } from '../engine/model/model-prices.js';
import { extensionTelemetry } from './extension-telemetry.js';
import type { EngineTelemetry } from '../engine/telemetry/start-telemetry.js';
import { HostRoleFileSource, userPromptsDirectory, watchRoleFiles, watchWorkflowFiles } from './role-source.js';
import { HostUserChannel } from './host-user-channel.js';
import { commandRules } from './command-rules.js';
import { RoleProblems } from './role-problems.js';
import { readSettings } from './configuration.js';
import { confirmFanOut } from './confirm-fan-out.js';
import { createEngine, type Engine } from '../engine/team/create-engine.js';
import { userMcpConfigPath } from '../engine/mcp/mcp-config-files.js';
import { vscodeInputAsker, vscodeToolPort, vscodeUserMcpFile } from './language-model/vscode-tools.js';
import type { HostCommandApproval } from './host-command-approval.js';
import type { HostWebApproval } from './web-approval.js';
import type { RemoteAgentTokens } from './remote-agent-tokens.js';
import type { ChecksService } from './checks/run-checks.js';

export interface EngineSessionOptions {
  folder: vscode.WorkspaceFolder;
  taskManager: TaskManager;
  changes: ChangeSetRegistry;
  /** The folder's files as the editor sees them. */
  workspace: HostWorkspace;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>;
  /** Measures the model requests' timeouts. Default `systemClock`. */
  clock?: Clock;
  /** Where keys and base URLs fall back to. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Who is asked about commands (one for the extension's life: the sidebar shows what it waits on). */
  commandApproval: HostCommandApproval;
  /** The API keys known to the extension: commands never get them. Default: none. */
  secretValues?(): string[];
  /** Which sites agents read, and who is asked about others (one for the extension's life). */
  webApproval: HostWebApproval;
  /** Stored tokens of remote roles, over the environment. Default: the environment only. */
  remoteTokens?: RemoteAgentTokens;
  /** Where runs' conversations are kept (the window's run history). Default: in memory. */
  conversations?: ConversationStore;
  /** The extension's global storage folder, beside which VS Code keeps the user's prompts folder. Default: none read. */
  globalStorage?: vscode.Uri;
  /** The models' prices, to refuse a money budget over an unpriced model. Default: no check. */
  priceOf?: (model: string) => ModelPrice | undefined;
}

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
  /** OpenTelemetry's spans, when an endpoint is configured. */
  private telemetry: EngineTelemetry | undefined;
  /** Role-file problems in the Problems view. */
  private readonly problems: RoleProblems;
  /** The provider SDK's notices (a deprecated model), logged once each for the session, not per request. */
  private readonly providerNotices = onceEach((notice) => this.options.log.warn(notice));

  private constructor(private readonly options: EngineSessionOptions) {
    this.workspace = options.workspace;
    const home = options.environment?.HOME ?? homedir();
    this.problems = new RoleProblems(options.folder.uri, home);
    // The user's own roles too (~/.claude/agents, …), below the folder's; re-read when the folder's change.
    const prompts = userPromptsDirectory(options.globalStorage, home);
    this.roles = new RoleRegistry({
      source: new HostRoleFileSource(options.folder.uri),
      userSource: new NodeRoleFileSource(home),
      ...(prompts === undefined ? {} : { userPromptsDirectory: prompts }),
      watch: watchRoleFiles(options.folder, home, prompts),
    });
    this.stopLoggingRoles = this.roles.onDidChange((result) => {
      this.logRoleProblems(result.diagnostics);
      // A workflow names roles: whether its steps are sound can change with them.
      void this.listWorkflows().catch(() => undefined);
      void this.loadRemoteTokens(result.roles);
    });
    this.commandApproval = options.commandApproval;
    this.conversations = options.conversations ?? new MemoryConversationStore();
    const environment = options.environment ?? process.env;
    this.engine = createEngine({
      workspace: this.workspace,
      roles: this.roles,
      taskManager: options.taskManager,
      changes: options.changes,
      // A role file choosing programs to run, or an address to send the task to: not in Restricted Mode.
      trusted: () => vscode.workspace.isTrusted,
      commands: commandRules(this.commandApproval),
      web: options.webApproval,
      userChannel: this.userChannel,
      instructionSources: () => readSettings(vscode.workspace.isTrusted).instructionFiles,
      hooksEnabled: () => readSettings(vscode.workspace.isTrusted).hooks,
      settings: () => readSettings(vscode.workspace.isTrusted).capabilities,
      // The coordinator hears the verdict on its subagents' proposals, and may send new failures back.
      checks: {
        enabled: () => vscode.workspace.isTrusted && readSettings(vscode.workspace.isTrusted).checks,
        fixUntilGreen: () => readSettings(vscode.workspace.isTrusted).fixUntilGreen,
      },
      userHome: home,
      // MCP servers: the user's VS Code ones, then their own file; VS Code's registered tools; inputs in an input box.
      mcpUserFiles: [vscodeUserMcpFile(options.globalStorage), userMcpConfigPath(home, options.environment ?? process.env)].filter(
        (file): file is string => file !== undefined,
      ),
      hostTools: vscodeToolPort(),
      askMcpInput: vscodeInputAsker(),
      conversations: this.conversations,
      // The keys and remote agents' tokens the user set (or that the environment holds).
      secrets: () => options.secretValues?.() ?? [],
      environment,
      remoteEnvironment: () => (options.remoteTokens ? options.remoteTokens.over(environment) : environment),
      ...(options.clock ? { clock: options.clock } : {}),
      // The user may send any subagent's proposal back with a comment (Request Changes).
      keepSubagentConversations: true,
      // Through the session: telemetry starts after the engine (`create`), when it is configured at all.
      observeModel: (taskId, model) => this.telemetry?.observeModel(taskId, model) ?? model,
      context: new SettingContextWindows(options.log),
      confirmFanOut,
      approvePlan: () => readSettings(vscode.workspace.isTrusted).approvePlan,
      environmentNote: [
        `The workspace root is ${this.workspace.root}; give file paths relative to it.`,
        'You run inside VS Code. Your edits are proposals: the user reviews them as diffs and accepts or rejects them before anything is written.',
      ].join('\n'),
    });
  }

  /** Builds the session and reads the role files once. */
  static async create(options: EngineSessionOptions): Promise<EngineSession> {
    const session = new EngineSession(options);
    const loaded = await session.roles.load();
    session.logRoleProblems(loaded.diagnostics);
    await session.listWorkflows().catch((error: unknown) => options.log.warn(`Reading the workflow files failed: ${String(error)}`));
    session.stopWatchingWorkflows = watchWorkflowFiles(options.folder, () => void session.listWorkflows().catch(() => undefined));
    await session.loadRemoteTokens(loaded.roles);
    session.telemetry = await extensionTelemetry(
      options.taskManager,
      options.environment ?? process.env,
      () => options.secretValues?.() ?? [],
      options.log,
    );
    return session;
  }

  /** Sends the spans still pending (the window is closing, after its tasks have ended); once. */
  async closeTelemetry(): Promise<void> {
    const telemetry = this.telemetry;
    this.telemetry = undefined;
    await telemetry?.shutdown();
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

  dispose(): void {
    this.stopLoggingRoles();
    this.stopWatchingWorkflows();
    this.problems.dispose();
    this.roles.dispose();
    void this.engine.close();
    void this.closeTelemetry();
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
