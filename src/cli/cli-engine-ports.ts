/**
 * The ports the CLI hands `createEngine`: its flags as rules (nobody is asked in a terminal run), its
 * run history as the engine's history store, its telemetry. Nothing here builds an engine part.
 */
import {
  contextPolicy,
  ContextWindowTable,
  type EngineHistory,
  type EngineHost,
  type FolderItem,
  type ModelChooser,
  type NodeWorkspace,
  type PriceTable,
  type RoleRegistry,
} from '../engine/index.js';
import type { CliEngineOptions } from './cli-engine-options.js';
import { startCliTelemetry } from './cli-telemetry.js';
import type { CliRunHistory } from './run-history.js';

/** Commands `Bash` may run: the flags' patterns; nobody can be asked in a terminal run. */
export function cliCommandRules(options: CliEngineOptions): EngineHost['commands'] {
  return {
    allowedPatterns: () => options.allowCommands ?? [],
    howToAllow: 'The user allows commands with --allow-command <pattern> when running agent-team.',
    sandbox: () => (options.noSandbox ? 'off' : 'auto'),
    ...(options.detectSandbox ? { detectSandbox: options.detectSandbox } : {}),
    networkForAll: () => options.allowNetwork ?? false,
    networkPatterns: () => options.allowNetworkCommands ?? [],
    howToRunUnsandboxed: 'The user can run agent-team with --no-sandbox to run allowed commands without a sandbox.',
    passNames: () => options.passEnvironment ?? [],
  };
}

/** Nobody can be asked in a terminal run: sites are allowed up front. */
export function cliSiteRules(options: CliEngineOptions): EngineHost['web'] {
  return {
    allowedDomains: () => options.allowDomains ?? [],
    howToAllow: 'The user allows sites with --allow-domain <host> when running agent-team.',
  };
}

/** The run log as the engine's history: it records the manager and the proposals, and releases the run locks last. */
export function cliHistoryPort(history: CliRunHistory): EngineHistory {
  return {
    store: history.store,
    generateId: history.generateId,
    attachAfterLoad: (taskManager, changes) => {
      history.runLog.attach(taskManager);
      history.runLog.attachChanges(changes);
      // A run this process starts is its own from its first event: a `--resume` elsewhere waits for it.
      taskManager.onEvent((event) => {
        if (event.type === 'task-start' && event.task.parentId === null) history.locks.claim(event.task.id);
      });
    },
    close: () => history.runLog.close().finally(() => history.locks.releaseAll()),
  };
}

export interface CliHostParts {
  workspace: NodeWorkspace;
  history: CliRunHistory | undefined;
  prices: PriceTable;
  secrets: () => readonly string[];
  modelFor: ModelChooser;
  folderTrust: { trusted(): boolean; trustsItem(item: FolderItem): boolean; howToTrust: string };
  warn(message: string): void;
}

/** Everything the CLI tells `createEngine`: its flags as the engine's ports. */
export function cliEngineHost(options: CliEngineOptions, parts: CliHostParts): EngineHost {
  const { workspace, history } = parts;
  return {
    workspace,
    warn: parts.warn,
    tasks: {
      ...(options.maxConcurrent === undefined ? {} : { maxConcurrent: options.maxConcurrent }),
      priceOf: (model) => parts.prices.priceOf(model),
      ...(history ? { history: cliHistoryPort(history) } : {}),
    },
    // The folder's own hooks, role files' servers and remote roles: only where the user trusted it (folder-trust.ts).
    trusted: parts.folderTrust.trusted,
    // Exactly what was trusted: a hook added to the settings later (they are read at each task's start) is not.
    trustsFolderItem: parts.folderTrust.trustsItem,
    howToTrust: parts.folderTrust.howToTrust,
    mcpInputHowTo:
      "the CLI asks for no server's ${input:…}, VS Code does; to use it here, give the value in the server's entry, e.g. in your own ~/.config/agent-team/mcp.json",
    commands: cliCommandRules(options),
    web: cliSiteRules(options),
    ...(options.userChannel ? { userChannel: options.userChannel } : {}),
    ...(options.checks ? { checks: { enabled: () => true, fixUntilGreen: () => options.fixUntilGreen ?? 0 } } : {}),
    ...(options.instructionFiles ? { instructionSources: () => options.instructionFiles ?? [] } : {}),
    hooksEnabled: () => !options.noHooks,
    ...(options.settings ? { settings: () => options.settings! } : {}),
    ...(history ? { conversations: history.runLog.conversations } : {}),
    secrets: parts.secrets,
    telemetry: (taskManager, secrets) => startCliTelemetry(taskManager, options.environment, secrets),
    context: contextPolicy(new ContextWindowTable({}, options.contextWindow)),
    environment: options.environment,
    modelFor: parts.modelFor,
    environmentNote: `Workspace root: ${workspace.root}. Paths are relative to it.`,
    // Nobody can be asked in a terminal run: a fan-out wider than the limit needs --yes up front.
    fanOutHowToAllow: 'run agent-team with --yes to allow it',
    approvePlan: () => options.approvePlan ?? false,
    planAnswerHowTo:
      options.planAnswerHowTo ??
      'with --approve-plan the answer is read from stdin: run agent-team on a terminal, or pipe "approve", "stop" or your changes into it',
  };
}

/** The values of the variables remote roles name for their tokens (`a2a_auth_env`). */
export function remoteTokens(roles: RoleRegistry, environment: NodeJS.ProcessEnv): string[] {
  return roles
    .list()
    .map((role) => (role.a2aAuthEnv === undefined ? undefined : environment[role.a2aAuthEnv]))
    .filter((token): token is string => token !== undefined);
}
