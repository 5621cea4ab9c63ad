/**
 * The engine of every CLI command that runs agents (`run`, `mcp`, `serve --a2a`): the model from the flags
 * and the environment, the workspace, and `createEngine` over the CLI's ports (cli-engine-ports.ts), which
 * builds and owns the roles, the change sets, the task manager, the run log's recording and telemetry.
 * The folder's trust is decided here, once the roles are read. `close()` is the engine's one shutdown.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  type AgentTeam,
  type ChangeSetRegistry,
  type ChecksService,
  ConfigurationError,
  createEngine,
  createModel,
  defaultLimits,
  type FolderItem,
  formatRoleDiagnostic,
  itemKey,
  type ModelChooser,
  namesHoldingSecrets,
  NodeWorkspace,
  onceEach,
  type RoleRegistry,
  type RunLog,
  secretValues,
  type TaskManager,
  withFallbacks,
} from '../engine/index.js';
import { checkBudgetPrices } from './budget-check.js';
import type { CliEngineOptions } from './cli-engine-options.js';
import { cliEngineHost, remoteTokens } from './cli-engine-ports.js';
import { decideFolderTrust } from './folder-trust.js';
import { cliModelSettings } from './model-settings.js';
import { cliPriceTable } from './price-file.js';
import { warnWithoutSandbox } from './sandbox-warning.js';
import { terminalSafe } from './terminal-text.js';

export type { CliEngineOptions } from './cli-engine-options.js';

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
  /** The engine's one shutdown (engine-shutdown.ts): roles, tasks, servers, run log, telemetry; idempotent. */
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
  const warn = (message: string) => options.stderr.write(`agent-team: ${terminalSafe(message)}\n`);
  const prices = await cliPriceTable(options.modelPrices, warn);
  const history = await options.history?.(workspace.root);
  const providerKeys = secretValues([
    options.environment.ANTHROPIC_API_KEY,
    options.environment.OPENAI_API_KEY,
    ...(options.secrets ?? []),
  ]);
  // The providers' keys and the tokens remote roles send: no process, tool result or error carries one.
  // The engine's roles, once it is built (the secrets are read only as commands and tools run).
  const built: { roles?: RoleRegistry } = {};
  const secrets = () => secretValues([...providerKeys, ...(built.roles ? remoteTokens(built.roles, options.environment) : [])]);
  const modelFor: ModelChooser = (_role, override) =>
    withFallbacks(override ? createModel({ ...settings, model: override }, modelOptions) : model, fallbacks);
  // Decided once the roles are read (below), before any run starts; nothing of the folder runs until then.
  let folder: { trusted: boolean; items: ReadonlySet<string> } = { trusted: false, items: new Set() };
  const folderTrust = {
    trusted: () => folder.trusted,
    trustsItem: (item: FolderItem) => folder.items.has(itemKey(item)),
    howToTrust: 'run `agent-team trust` in it, or pass --trust',
  };
  const engine = createEngine(cliEngineHost(options, { workspace, history, prices, secrets, modelFor, folderTrust, warn }));
  built.roles = engine.roles;
  try {
    const { diagnostics } = await engine.open();
    for (const diagnostic of diagnostics) options.stderr.write(`${terminalSafe(formatRoleDiagnostic(diagnostic))}\n`);
    // Before the folder's trust is asked: a run that cannot start asks nothing.
    checkBudgetPrices(options.budgetUsd, prices, {
      provider: settings.provider,
      model: model.modelId,
      fallbackModels: options.fallbackModels ?? [],
      roles: engine.roles.list(),
    });
    // Asked before anything else reads stdin (the user channel), and said before the run starts.
    const decided = await decideFolderTrust({
      root: workspace.root,
      roles: engine.roles.list(),
      trustFlag: options.trust,
      ...(options.checks ? {} : { unusedKinds: ['check'] }),
      ...(options.askTrust ? { ask: options.askTrust } : {}),
      environment: options.environment,
      stderr: options.stderr,
    });
    folder = { trusted: decided.trusted, items: new Set(decided.configuration.items.map(itemKey)) };
    for (const name of namesHoldingSecrets(options.environment, options.passEnvironment ?? [], providerKeys))
      warn(`--pass-env ${name}: it holds a configured API key, which no command gets; not passed.`);
    await warnWithoutSandbox(engine.commands, options);
  } catch (error) {
    await engine.close();
    throw error;
  }
  const team = engine.team({
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
    ...(options.autoBackgroundSeconds === undefined ? {} : { autoBackgroundSeconds: options.autoBackgroundSeconds }),
    ...(options.delegationReach === undefined ? {} : { delegationReach: options.delegationReach }),
    confirmFanOutAbove: options.yes ? Infinity : defaultLimits.confirmFanOutAbove,
  });
  return {
    workspace,
    roles: engine.roles,
    changes: engine.changes,
    taskManager: engine.taskManager,
    team,
    folderTrust: { trusted: folder.trusted, trustsItem: folderTrust.trustsItem, howToTrust: folderTrust.howToTrust },
    modelFor,
    checks: engine.checks,
    ...(history ? { runLog: history.runLog } : {}),
    close: () => engine.close(),
  };
}

async function existingDirectory(directory: string): Promise<string> {
  const absolute = path.resolve(directory);
  const info = await stat(absolute).catch(() => undefined);
  if (!info?.isDirectory()) throw new ConfigurationError(`--workspace ${directory}: no such folder`);
  return absolute;
}
