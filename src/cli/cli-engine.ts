/**
 * What every CLI command that runs agents builds the same way: the model from the flags and the
 * environment, the workspace, its roles, the change sets, the task manager and the team over them.
 */
import { contextPolicy } from '../engine/agent/compaction/context-policy.js';
import { ContextWindowTable } from '../engine/model/context-windows.js';
import { startCliTelemetry } from './cli-telemetry.js';
import { cliPriceTable } from './price-file.js';
import { checkBudgetPrices } from './budget-check.js';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { ChangeSetRegistry } from '../engine/changes/registry.js';
import type { UserChannel } from '../engine/conversation/user-channel.js';
import { ConfigurationError } from '../engine/errors.js';
import { createModel } from '../engine/model/create-model.js';
import { onceEach } from '../engine/model/provider-notices.js';
import { withFallbacks } from '../engine/model/failover-model.js';
import type { RunLog } from '../engine/runs/run-log.js';
import type { CliRunHistory } from './run-history.js';
import { TaskManager } from '../engine/tasks/task-manager.js';
import type { AgentTeam } from '../engine/team/agent-team.js';
import { createEngine } from '../engine/team/create-engine.js';
import { defaultLimits } from '../engine/limits.js';
import type { DelegationReach } from '../engine/delegation/delegation-reach.js';
import { formatRoleDiagnostic } from '../engine/roles/format-diagnostic.js';
import { NodeRoleFileSource } from '../engine/roles/node-role-file-source.js';
import { RoleRegistry } from '../engine/roles/role-registry.js';
import { NodeWorkspace } from '../engine/workspace/node-workspace.js';
import { namesHoldingSecrets } from '../engine/commands/child-environment.js';
import type { SandboxAvailability } from '../engine/commands/sandbox/sandbox-availability.js';
import { secretValues } from '../engine/secrets.js';
import type { InstructionSource } from '../engine/instructions/instruction-sources.js';
import type { CapabilitySettings } from '../engine/team/capabilities.js';
import type { ProviderName } from './arguments.js';
import { cliModelSettings } from './model-settings.js';
import { terminalSafe } from './terminal-text.js';
import { warnWithoutSandbox } from './sandbox-warning.js';
import { decideFolderTrust, type TrustQuestion } from './folder-trust.js';
import { type FolderItem, itemKey } from '../engine/team/folder-configuration.js';
import type { ModelChooser } from '../engine/team/team-options.js';
import type { ChecksService } from '../engine/checks/checks-service.js';

export interface CliEngineOptions {
  workspace: string;
  provider?: ProviderName;
  model?: string;
  /** `--fallback-model`: the models every task goes on with, in order, when its own is down. Default: none. */
  fallbackModels?: readonly string[];
  baseUrl?: string;
  maxConcurrent?: number;
  maxDepth?: number;
  autoBackgroundSeconds?: number;
  delegationReach?: DelegationReach;
  /** True: any fan-out may start (`--yes`); else more than 8 subagents in one turn are refused. */
  yes?: boolean;
  /** `--approve-plan`: the plan is put to the user before any subagent starts. Default false. */
  approvePlan?: boolean;
  /** Where nobody answered the plan question, how the user can, said in the failure. Default: on stdin (`run`). */
  planAnswerHowTo?: string;
  /** Commands `Bash` may run (`--allow-command`); nobody is asked about others: they are refused. */
  allowCommands?: readonly string[];
  /** `--no-sandbox`: commands run as the user, without the OS sandbox. */
  noSandbox?: boolean;
  /** `--allow-network`: every sandboxed command gets the network. */
  allowNetwork?: boolean;
  /** `--allow-network-command`: the sandboxed commands that get the network. */
  allowNetworkCommands?: readonly string[];
  /** More secrets to keep out of every command and tool result (the tokens `serve` takes). */
  secrets?: readonly string[];
  /** `--pass-env`: variables commands get besides the allowlist's. */
  passEnvironment?: readonly string[];
  /** `--allow-domain`: the sites WebFetch reads (`*.example.com` for its subdomains); any other is refused. */
  allowDomains?: readonly string[];
  /** `--model-prices <file>`: the user's prices over the list's. Default: the list's alone. */
  modelPrices?: string;
  /** `--budget-usd`: checked here against the prices (a model with none refuses to start). Default: no budget. */
  budgetUsd?: number;
  /** `--context-window <tokens>`: every model's window, over the list's. Default: the list's. */
  contextWindow?: number;
  /** `--no-hooks`: no hook runs. Default: the settings files' hooks run. */
  noHooks?: boolean;
  /** `--trust`: the folder's own hooks and role files' servers run this once, not remembered. Default: as the trust store says. */
  trust?: boolean;
  /** Asks the user whether an untrusted folder may run its configuration (`run` on a terminal). Default: nobody is asked; it does not run. */
  askTrust?: TrustQuestion;
  /** `--instruction-files`: the sources agents' instruction files come from. Default: every source. */
  instructionFiles?: readonly InstructionSource[];
  /** The capabilities' settings as the command line gave them (command-flags.ts). Default: every default. */
  settings?: CapabilitySettings;
  /** Whether this machine can sandbox commands. Default: found by trying. Tests inject an answer. */
  detectSandbox?: () => Promise<SandboxAvailability>;
  /** `--checks`: the coordinator hears the checks' verdict on its subagents' proposals. Default false. */
  checks?: boolean;
  /** `--fix-until-green <n>`: rounds the coordinator may send work back. Default 0. */
  fixUntilGreen?: number;
  /** Where runs are kept (the run log). Default: nowhere (memory only). */
  history?: (workspaceRoot: string) => Promise<CliRunHistory>;
  userChannel?: (taskManager: TaskManager) => UserChannel | undefined;
  environment: NodeJS.ProcessEnv;
  stderr: { write(text: string): void };
}

export interface CliEngine {
  workspace: NodeWorkspace;
  roles: RoleRegistry;
  changes: ChangeSetRegistry;
  taskManager: TaskManager;
  team: AgentTeam;
  /** The run history, when it is kept. */
  runLog?: RunLog;
  /** Whether the folder's own configuration is used (folder-trust.ts), and exactly which of it. */
  folderTrust: { trusted: boolean; trustsItem(item: FolderItem): boolean; howToTrust: string };
  /** The models of a run: the flags', or `override` (a role file's or a prompt file's `model`). */
  modelFor: ModelChooser;
  /** The repository's own checks on proposals. */
  checks: ChecksService;
  /** Ends what the engine holds besides tasks: the scratch copies of commands. */
  close(): Promise<void>;
}

/** Fails fast with a `ConfigurationError` (exit 2) on a missing key, a bad base URL or a missing folder. */
export async function createCliEngine(options: CliEngineOptions): Promise<CliEngine> {
  const settings = cliModelSettings(options, options.environment);
  // The SDK's notices (a deprecated model), once each for the whole run, however many requests say them.
  const modelOptions = {
    environment: options.environment,
    onNotice: onceEach((notice) => options.stderr.write(`agent-team: warning: ${terminalSafe(notice)}\n`)),
  };
  const model = createModel(settings, modelOptions);
  // Made once, with the model (a bad one fails here, exit 2); each task gets a failover of its own.
  const fallbacks = (options.fallbackModels ?? []).map((id) => createModel({ ...settings, model: id }, modelOptions));
  const workspace = new NodeWorkspace(await existingDirectory(options.workspace));
  // The user's own roles too (~/.claude/agents, …): below the workspace's.
  const roles = new RoleRegistry({ source: new NodeRoleFileSource(workspace.root), userSource: new NodeRoleFileSource(homedir()) });
  const { diagnostics } = await roles.load();
  for (const diagnostic of diagnostics) options.stderr.write(`${terminalSafe(formatRoleDiagnostic(diagnostic))}\n`);
  const warn = (message: string) => options.stderr.write(`agent-team: ${terminalSafe(message)}\n`);
  const prices = await cliPriceTable(options.modelPrices, warn);
  // Before the folder's trust is asked: a run that cannot start asks nothing.
  checkBudgetPrices(options.budgetUsd, prices, {
    provider: settings.provider,
    model: model.modelId,
    fallbackModels: options.fallbackModels ?? [],
    roles: roles.list(),
  });
  // Asked before anything else reads stdin (the user channel), and said before the run starts.
  const folder = await decideFolderTrust({
    root: workspace.root,
    roles: roles.list(),
    trustFlag: options.trust,
    ...(options.checks ? {} : { unusedKinds: ['check'] }),
    ...(options.askTrust ? { ask: options.askTrust } : {}),
    environment: options.environment,
    stderr: options.stderr,
  });
  const trustedItems = new Set(folder.configuration.items.map(itemKey));

  const changes = new ChangeSetRegistry();
  const history = await options.history?.(workspace.root);
  const taskManager = new TaskManager({
    maxConcurrent: options.maxConcurrent,
    store: history?.store,
    onWarning: warn,
    priceOf: (model) => prices.priceOf(model),
    ...(history ? { generateId: history.generateId } : {}),
  });
  await taskManager.load();
  history?.runLog.attach(taskManager);
  history?.runLog.attachChanges(changes);
  // A run this process starts is its own from its first event: a `--resume` elsewhere waits for it.
  taskManager.onEvent((event) => {
    if (event.type === 'task-start' && event.task.parentId === null) history?.locks.claim(event.task.id);
  });
  const providerKeys = secretValues([
    options.environment.ANTHROPIC_API_KEY,
    options.environment.OPENAI_API_KEY,
    ...(options.secrets ?? []),
  ]);
  const userChannel = options.userChannel?.(taskManager);
  const secrets = () => secretValues([...providerKeys, ...remoteTokens(roles, options.environment)]);
  const telemetry = await startCliTelemetry(taskManager, options.environment, secrets);
  const modelFor: ModelChooser = (_role, override) =>
    withFallbacks(override ? createModel({ ...settings, model: override }, modelOptions) : model, fallbacks);
  const howToTrust = 'run `agent-team trust` in it, or pass --trust';
  const engine = createEngine({
    workspace,
    roles,
    taskManager,
    changes,
    // The folder's own hooks, role files' servers and remote roles: only where the user trusted it (folder-trust.ts).
    trusted: () => folder.trusted,
    // Exactly what was trusted: a hook added to the settings later (they are read at each task's start) is not.
    trustsFolderItem: (item) => trustedItems.has(itemKey(item)),
    howToTrust,
    mcpInputHowTo:
      "the CLI asks for no server's ${input:…}, VS Code does; to use it here, give the value in the server's entry, e.g. in your own ~/.config/agent-team/mcp.json",
    commands: {
      allowedPatterns: () => options.allowCommands ?? [],
      howToAllow: 'The user allows commands with --allow-command <pattern> when running agent-team.',
      sandbox: () => (options.noSandbox ? 'off' : 'auto'),
      ...(options.detectSandbox ? { detectSandbox: options.detectSandbox } : {}),
      networkForAll: () => options.allowNetwork ?? false,
      networkPatterns: () => options.allowNetworkCommands ?? [],
      howToRunUnsandboxed: 'The user can run agent-team with --no-sandbox to run allowed commands without a sandbox.',
      passNames: () => options.passEnvironment ?? [],
    },
    // Nobody can be asked in a terminal run: sites are allowed up front.
    web: {
      allowedDomains: () => options.allowDomains ?? [],
      howToAllow: 'The user allows sites with --allow-domain <host> when running agent-team.',
    },
    ...(userChannel ? { userChannel } : {}),
    ...(options.checks ? { checks: { enabled: () => true, fixUntilGreen: () => options.fixUntilGreen ?? 0 } } : {}),
    ...(options.instructionFiles ? { instructionSources: () => options.instructionFiles ?? [] } : {}),
    hooksEnabled: () => !options.noHooks,
    ...(options.settings ? { settings: () => options.settings! } : {}),
    ...(history ? { conversations: history.runLog.conversations } : {}),
    // The providers' keys and the tokens remote roles send: no process, tool result or error carries one.
    secrets,
    ...(telemetry ? { observeModel: telemetry.observeModel } : {}),
    context: contextPolicy(new ContextWindowTable({}, options.contextWindow)),
    environment: options.environment,
    modelFor,
    environmentNote: `Workspace root: ${workspace.root}. Paths are relative to it.`,
    // Nobody can be asked in a terminal run: a fan-out wider than the limit needs --yes up front.
    fanOutHowToAllow: 'run agent-team with --yes to allow it',
    approvePlan: () => options.approvePlan ?? false,
    planAnswerHowTo:
      options.planAnswerHowTo ??
      'with --approve-plan the answer is read from stdin: run agent-team on a terminal, or pipe "approve", "stop" or your changes into it',
  });
  for (const name of namesHoldingSecrets(options.environment, options.passEnvironment ?? [], providerKeys))
    warn(`--pass-env ${name}: it holds a configured API key, which no command gets; not passed.`);
  await warnWithoutSandbox(engine.commands, options);
  const team = engine.team({
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
    ...(options.autoBackgroundSeconds === undefined ? {} : { autoBackgroundSeconds: options.autoBackgroundSeconds }),
    ...(options.delegationReach === undefined ? {} : { delegationReach: options.delegationReach }),
    confirmFanOutAbove: options.yes ? Infinity : defaultLimits.confirmFanOutAbove,
  });
  const folderTrust = { trusted: folder.trusted, trustsItem: (item: FolderItem) => trustedItems.has(itemKey(item)), howToTrust };
  return {
    workspace,
    roles,
    changes,
    taskManager,
    team,
    folderTrust,
    modelFor,
    checks: engine.checks,
    ...(history ? { runLog: history.runLog } : {}),
    close: () =>
      engine.close().finally(() => Promise.all([telemetry?.shutdown(), history?.runLog.close().finally(() => history.locks.releaseAll())])),
  };
}

/** The values of the variables remote roles name for their tokens (`a2a_auth_env`). */
function remoteTokens(roles: RoleRegistry, environment: NodeJS.ProcessEnv): string[] {
  return roles
    .list()
    .map((role) => (role.a2aAuthEnv === undefined ? undefined : environment[role.a2aAuthEnv]))
    .filter((token): token is string => token !== undefined);
}

async function existingDirectory(directory: string): Promise<string> {
  const absolute = path.resolve(directory);
  const info = await stat(absolute).catch(() => undefined);
  if (!info?.isDirectory()) throw new ConfigurationError(`--workspace ${directory}: no such folder`);
  return absolute;
}
