/**
 * Everything the extension holds for one window, wired together. Cheap at construction (activation):
 * the task manager, the change-set registry, the sidebar provider, the output channel. The engine proper
 * (workspace tools, roles and their watchers, model clients) is built on first use by `engine()`.
 */
import { homedir } from 'node:os';
import { WorkFolder } from './work-folder.js';
import { HostWebApproval } from './web-approval.js';
import * as vscode from 'vscode';
import {
  type ChangeSetRegistry,
  type Clock,
  ConfigurationError,
  DisposableStore,
  type EngineCore,
  errorMessage,
  isTerminal,
  restoreProposals,
  resumeSourceOf,
  systemClock,
  type TaskManager,
} from '../engine/index.js';
import { showError } from './notify.js';
import { configuredModelSetup } from './configured-model-setup.js';
import { readSettings } from './configuration.js';
import { windowEngineCore } from './window-engine-core.js';
import { foreignRunAllowed } from './foreign-runs.js';
import { WindowRunHistory } from './window-run-history.js';
import { UndoneFiles } from './undone-files.js';
import { announceInterruptedRuns } from './interrupted-runs-notice.js';
import { SettingPrices } from './model-prices-setting.js';
import { ActivityContext } from './activity-context.js';
import type { CommandChoice } from './host-command-approval.js';
import { ApiKeyStore } from './api-keys.js';
import { RemoteAgentTokens } from './remote-agent-tokens.js';
import { ChangeSetStore } from './change-store.js';
import { EngineSession } from './engine-session.js';
import type { HostWorkspace } from './host-workspace.js';
import { type LocalServer, probeLocalServers } from './local-server.js';
import { HostCommandApproval } from './host-command-approval.js';
import { SecretRedactor } from './redaction.js';
import { ChangeDecisions } from './review/change-decisions.js';
import { HunkLenses } from './review/hunk-lenses.js';
import { ProposalFileSystem } from './review/proposal-file-system.js';
import { ReviewController } from './review/review-controller.js';
import { RevisionHistory } from './review/revisions.js';
import { SetupService } from './setup-state.js';
import { TaskViewProvider } from './sidebar/task-view-provider.js';
import { handleWebviewAction } from './sidebar/webview-actions.js';
import { ChecksLenses } from './checks/checks-lens.js';
import { RunChecksTracker } from './checks/run-checks.js';

export interface HostOptions {
  /** Looks for a local model server. Default: `probeLocalServers()` (Ollama's and LM Studio's ports). */
  probeLocalServer?: () => Promise<LocalServer | undefined>;
  /** Default `systemClock`. */
  clock?: Clock;
  /** Where keys and base URLs fall back to. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
}

export class AgentTeamHost implements vscode.Disposable {
  readonly log: vscode.LogOutputChannel;
  readonly redactor = new SecretRedactor();
  readonly commandApproval: HostCommandApproval;
  /** Sites agents may read, allowed from a notification. */
  readonly webApproval: HostWebApproval;
  readonly keys: ApiKeyStore;
  /** Tokens remote roles send (`a2a_auth_env`), kept in SecretStorage. */
  readonly remoteTokens: RemoteAgentTokens;
  readonly setup: SetupService;
  readonly taskManager: TaskManager;
  readonly changes: ChangeSetRegistry;
  /** The engine's core from activation: the task manager, the change sets, and the one shutdown (engine-shutdown.ts). */
  private readonly core: EngineCore;
  readonly historyLoaded: Promise<void>;
  readonly sidebar: TaskViewProvider;
  /** The proposal documents (`agent-team-proposal:`), the proposed side editable. */
  readonly proposals: ProposalFileSystem;
  /** Accept / Reject above each pending hunk of a proposal document. */
  readonly hunkLenses: HunkLenses;
  /** Proposals as they were before the user asked for changes. */
  readonly revisions: RevisionHistory;
  readonly review: ReviewController;
  /** The repository's checks on runs' proposals (issue 40), and the verdict above each file of a review. */
  readonly checks: RunChecksTracker;
  readonly checksLenses: ChecksLenses;
  /** Context keys and the view's badge. */
  readonly activity: ActivityContext;
  private readonly changeStore: ChangeSetStore | undefined;
  /** The run log in the workspace storage: the history, the conversations, what Resume goes on from. */
  readonly runHistory: WindowRunHistory;
  /** Accepted files undone since (Undo Accepted Changes), listed `undone` in the sidebar. */
  readonly undoneFiles = new UndoneFiles();
  private readonly disposables = new DisposableStore();
  private session: Promise<EngineSession> | undefined;
  /** The folder the engine works in, once chosen (multi-root: folder-choice.ts), and its `Workspace`. */
  private readonly workFolder: WorkFolder;
  private readonly clock: Clock;
  /** The models' prices (`agentTeam.modelPrices` over the built-in list), for tasks' costs. */
  private readonly prices: SettingPrices;
  private readonly environment: Readonly<Record<string, string | undefined>>;

  constructor(
    readonly context: vscode.ExtensionContext,
    options: HostOptions = {},
  ) {
    this.log = vscode.window.createOutputChannel('Agent Team', { log: true });
    this.workFolder = new WorkFolder(this.log);
    const environment = options.environment ?? process.env;
    this.environment = environment;
    this.clock = options.clock ?? systemClock;
    this.keys = new ApiKeyStore(context.secrets, this.redactor, environment);
    this.commandApproval = new HostCommandApproval(context.workspaceState);
    this.webApproval = new HostWebApproval(context.workspaceState);
    this.remoteTokens = new RemoteAgentTokens(context.secrets, this.redactor);
    this.setup = new SetupService({
      keys: this.keys,
      probeLocalServer: options.probeLocalServer ?? (() => probeLocalServers()),
      log: this.log,
      environment,
    });
    // Sets agentTeam.modelConfigured for the walkthrough, whether or not the sidebar is ever shown.
    void this.setup.refresh().catch((error: unknown) => this.log.warn(`Reading the model setup failed: ${String(error)}`));
    const settings = readSettings(vscode.workspace.isTrusted);
    this.prices = new SettingPrices(this.log);
    const storage = context.storageUri?.scheme === 'file' ? context.storageUri : undefined;
    this.runHistory = new WindowRunHistory({
      storage: storage?.fsPath,
      retentionDays: settings.historyRetentionDays,
      clock: this.clock,
      warn: (message) => this.log.warn(message),
    });
    this.core = windowEngineCore({
      settings,
      runHistory: this.runHistory,
      changeStore: () => this.changeStore,
      clock: this.clock,
      prices: this.prices,
      log: this.log,
    });
    this.taskManager = this.core.taskManager;
    this.changes = this.core.changes;
    this.changeStore = storage
      ? new ChangeSetStore(vscode.Uri.joinPath(storage, 'proposed-changes.json'), this.changes, {
          onWarning: (message) => this.log.warn(message),
          clock: options.clock,
        })
      : undefined;
    this.historyLoaded = this.loadHistory();
    this.revisions = new RevisionHistory(this.changes);
    this.proposals = new ProposalFileSystem(this.changes, this.revisions);
    this.hunkLenses = new HunkLenses(this.changes);
    this.review = new ReviewController({
      changes: this.changes,
      taskManager: this.taskManager,
      folderUri: () => this.folder()?.uri,
      workspace: () => this.workspace(),
    });
    this.review.useDecisions(
      new ChangeDecisions({
        changes: this.changes,
        workspace: () => this.workspace(),
        openDiff: (taskId, path) => this.review.openDiff(taskId, path),
        log: this.log,
        restorePoints: { sink: this.runHistory, runOf: (taskId) => this.runHistory.runOf(taskId) },
      }),
    );
    this.checks = new RunChecksTracker({
      changes: this.changes,
      taskManager: this.taskManager,
      service: async () => (await this.engine()).checksService(),
      enabled: () => vscode.workspace.isTrusted && readSettings(vscode.workspace.isTrusted).checks,
      clock: this.clock,
      log: this.log,
    });
    void this.historyLoaded.then(() => this.checks.start());
    // No check starts for a window that is closing (a run that just ended would start one).
    this.core.shutdown.add('intake', () => this.checks.dispose());
    this.checksLenses = new ChecksLenses(this.checks, this.taskManager, (text) => this.redactor.redact(text));
    this.sidebar = new TaskViewProvider({
      extensionUri: context.extensionUri,
      taskManager: this.taskManager,
      changes: this.changes,
      undoneFiles: this.undoneFiles,
      setup: this.setup,
      historyLoaded: this.historyLoaded,
      log: this.log,
      redactor: this.redactor,
      onAction: (message) => handleWebviewAction(this, message),
      clock: options.clock,
      commandApprovals: this.commandApproval,
      checks: this.checks,
    });
    // A new concurrency limit applies at once, to the tasks already waiting too.
    this.disposables.add(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('agentTeam.maxConcurrentTasks'))
          this.taskManager.setMaxConcurrent(readSettings(vscode.workspace.isTrusted).maxConcurrentTasks);
      }),
    );
    this.activity = new ActivityContext(this.taskManager, this.changes, (count) => this.sidebar.showBadge(count));
    void this.historyLoaded.then(() => this.activity.refresh());
    this.disposables.addAll(
      this.log,
      this.setup,
      this.proposals,
      this.hunkLenses,
      this.sidebar,
      this.review,
      this.activity,
      this.remoteTokens,
      this.checksLenses,
      { dispose: () => this.checks.dispose() },
    );
    if (this.changeStore) this.disposables.add(this.changeStore);
  }

  /** The folder the agents work in, once chosen or beyond doubt (work-folder.ts); undefined in a multi-root workspace before the choice. */
  folder(): vscode.WorkspaceFolder | undefined {
    return this.workFolder.current();
  }

  /** The folder the agents work in, asked for when the workspace leaves it open; kept for the window. */
  chosenFolder(): Promise<vscode.WorkspaceFolder> {
    return this.workFolder.choose();
  }

  /** The folder's `Workspace` (sees unsaved editors; writes through WorkspaceEdit), built on first call. */
  workspace(): Promise<HostWorkspace> {
    return this.workFolder.workspace();
  }

  /** The user's home (their own commands in `~/.claude/commands`), as the engine session takes it. */
  userHome(): string {
    return this.environment.HOME ?? homedir();
  }

  /** The engine for the folder, built on first call. Throws `ConfigurationError` when no folder is open. */
  engine(): Promise<EngineSession> {
    this.session ??= (async () => {
      const folder = await this.chosenFolder();
      const session = await EngineSession.create({
        folder,
        workspace: await this.workspace(),
        core: this.core,
        log: this.log,
        clock: this.clock,
        environment: this.environment,
        commandApproval: this.commandApproval,
        webApproval: this.webApproval,
        remoteTokens: this.remoteTokens,
        secretValues: () => this.redactor.values(),
        globalStorage: this.context.globalStorageUri,
        conversations: this.runHistory.conversations,
        priceOf: (model) => this.prices.current().priceOf(model),
      });
      this.disposables.add(session);
      // The verdicts the engine reaches by itself (the coordinator's) show in the views too.
      const checks = session.checksService();
      if (checks) this.checks.attach(checks);
      return session;
    })();
    this.session.catch(() => (this.session = undefined));
    return this.session;
  }

  /**
   * What the user wrote in a task's composer: its answer, a message for its next turn, or, for a finished
   * run's root, a follow-up that continues the run.
   */
  async sendToTask(taskId: string, text: string): Promise<void> {
    try {
      const session = await this.engine();
      const task = this.taskManager.get(taskId);
      if (task && task.parentId === null && isTerminal(task.status)) {
        const setup = await configuredModelSetup(this);
        if (!setup) return;
        const started = await session.followUp(
          { rootId: taskId, message: text, mode: 'background' },
          setup,
          readSettings(vscode.workspace.isTrusted),
        );
        this.log.info(`Follow-up ${started.task.id} of run ${taskId}.`);
        this.sidebar.messageSent(taskId, 'follow-up');
        void this.sidebar.reveal(started.task.id);
        return;
      }
      const outcome = session.sendToTask(taskId, text);
      this.log.info(`${outcome === 'answered' ? 'Answered' : 'Sent a message to'} ${taskId}.`);
      this.sidebar.messageSent(taskId, outcome);
    } catch (error) {
      showError(vscode.l10n.t('Agent Team: {0}', errorMessage(error)));
    }
  }

  /**
   * Resume Run: the run's interrupted tasks go on, each from its last completed turn in the run log, with
   * the models set up now. Throws a `ConfigurationError` saying why a run cannot (the command reports it).
   */
  async resumeRun(runId: string): Promise<void> {
    const session = await this.engine();
    const contents = await this.runHistory.read(runId);
    if (!contents)
      throw new ConfigurationError(
        `Run ${runId} is not in the run history any more (agentTeam.historyRetentionDays may have removed it); start it again.`,
      );
    if (!(await foreignRunAllowed(contents.signature, runId, 'resume'))) return;
    const setup = await configuredModelSetup(this);
    if (!setup) return;
    restoreProposals(this.changes, contents, (message) => this.log.warn(message));
    const resumed = await session.resume({ runId, source: resumeSourceOf(contents) }, setup, readSettings(vscode.workspace.isTrusted));
    this.log.info(`Resumed run ${runId}: ${resumed.map((task) => task.id).join(', ')}.`);
    void this.sidebar.reveal(runId);
  }

  /** False when the run's log does not verify as the user's and the user does not confirm going on (foreign-runs.ts). */
  async ownRunOrConfirmed(runId: string, action: 'resume' | 'apply'): Promise<boolean> {
    return foreignRunAllowed(await this.runHistory.signatureOf(runId), runId, action);
  }

  /** The diff of one proposed file (from the sidebar's list of a task's changes). */
  openDiff(taskId: string, path: string): Promise<void> {
    return this.review.openDiff(taskId, path);
  }

  /** Ends the chat a chat-mode task waits in: it ends with the agent's last answer. */
  async endChat(taskId: string): Promise<void> {
    const ended = (await this.engine()).userChannel.answer(taskId, undefined);
    if (ended) this.log.info(`Ended the chat of ${taskId}.`);
  }

  /** The user's decision on the command a task waits to run (the sidebar's buttons). */
  async decideCommand(taskId: string, decision: CommandChoice): Promise<void> {
    const decided = (await this.engine()).commandApproval.decide(taskId, decision);
    if (decided)
      this.log.info(
        `Command of ${taskId}: ${decision === 'deny' ? 'denied' : decision === 'always' ? 'allowed always for this workspace' : 'allowed once'}.`,
      );
  }

  /** Change sets of removed tasks go with them (after Clear History). */
  /** Clear History: the cleared runs leave the run log (ids that head no run have no file there). */
  async forgetRuns(taskIds: readonly string[]): Promise<void> {
    await this.runHistory.forget(taskIds).catch((error: unknown) => this.log.warn(`Clearing the run history: ${errorMessage(error)}`));
  }

  forgetChanges(taskIds: readonly string[]): void {
    let removed = false;
    for (const taskId of taskIds) {
      if (!this.changes.get(taskId)) continue;
      this.changes.remove(taskId);
      this.sidebar.changeSetRemoved(taskId);
      removed = true;
    }
    if (removed) {
      this.changeStore?.scheduleSave();
      this.activity.updateChanges();
    }
  }

  /**
   * The engine's one shutdown (engine-shutdown.ts), whether or not the engine proper was built: no new check,
   * every task stopped (reason: shutdown), servers ended, the history and the proposals saved, spans sent.
   * Idempotent.
   */
  close(): Promise<void> {
    return this.core.close();
  }

  dispose(): void {
    void this.close();
    this.disposables.dispose();
  }

  private async loadHistory(): Promise<void> {
    try {
      await this.core.load();
      await this.changeStore?.load((taskId) => this.taskManager.get(taskId) !== undefined);
      await announceInterruptedRuns(this.taskManager.list(), this.context.workspaceState);
    } catch (error) {
      this.log.warn(`Could not load the task history: ${errorMessage(error)}`);
    }
  }
}
