/**
 * What the extension tells `createEngine` for one folder: VS Code's ports (Workspace Trust, the approvals,
 * the settings read at each use, SecretStorage's tokens, VS Code's MCP servers and tools, the window's
 * telemetry). Nothing here builds an engine part: the engine builds the roles from these sources.
 */
import * as vscode from 'vscode';
import { type ConversationStore, type EngineHost, userMcpConfigPath } from '../engine/index.js';
import { commandRules } from './command-rules.js';
import { readSettings } from './configuration.js';
import { confirmFanOut } from './confirm-fan-out.js';
import { SettingContextWindows } from './context-window-setting.js';
import type { EngineSessionOptions } from './engine-session-options.js';
import { extensionTelemetry } from './extension-telemetry.js';
import type { HostCommandApproval } from './host-command-approval.js';
import type { HostUserChannel } from './host-user-channel.js';
import type { HostWorkspace } from './host-workspace.js';
import { vscodeInputAsker, vscodeToolPort, vscodeUserMcpFile } from './language-model/vscode-tools.js';
import { HostRoleFileSource, userPromptsDirectory, watchRoleFiles } from './role-source.js';

export interface SessionParts {
  workspace: HostWorkspace;
  home: string;
  userChannel: HostUserChannel;
  commandApproval: HostCommandApproval;
  conversations: ConversationStore;
}

export function sessionEngineHost(options: EngineSessionOptions, parts: SessionParts): EngineHost {
  const { home } = parts;
  const environment = options.environment ?? process.env;
  // The user's own roles too (~/.claude/agents, …), below the folder's: the engine reads both, as for every host.
  const prompts = userPromptsDirectory(options.globalStorage, home);
  return {
    workspace: parts.workspace,
    core: options.core,
    roleSources: {
      source: new HostRoleFileSource(options.folder.uri),
      ...(prompts === undefined ? {} : { userPromptsDirectory: prompts }),
      // Re-read when the folder's role files change.
      watch: watchRoleFiles(options.folder, home, prompts),
    },
    warn: (message) => options.log.warn(message),
    telemetry: (taskManager, secrets) => extensionTelemetry(taskManager, environment, secrets, options.log),
    // A role file choosing programs to run, or an address to send the task to: not in Restricted Mode.
    trusted: () => vscode.workspace.isTrusted,
    commands: commandRules(parts.commandApproval),
    web: options.webApproval,
    userChannel: () => parts.userChannel,
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
    mcpUserFiles: [vscodeUserMcpFile(options.globalStorage), userMcpConfigPath(home, environment)].filter(
      (file): file is string => file !== undefined,
    ),
    hostTools: vscodeToolPort(),
    askMcpInput: vscodeInputAsker(),
    conversations: parts.conversations,
    // The keys and remote agents' tokens the user set (or that the environment holds).
    secrets: () => options.secretValues?.() ?? [],
    environment,
    remoteEnvironment: () => (options.remoteTokens ? options.remoteTokens.over(environment) : environment),
    ...(options.clock ? { clock: options.clock } : {}),
    // The user may send any subagent's proposal back with a comment (Request Changes).
    keepSubagentConversations: true,
    context: new SettingContextWindows(options.log),
    confirmFanOut,
    approvePlan: () => readSettings(vscode.workspace.isTrusted).approvePlan,
    environmentNote: [
      `The workspace root is ${parts.workspace.root}; give file paths relative to it.`,
      'You run inside VS Code. Your edits are proposals: the user reviews them as diffs and accepts or rejects them before anything is written.',
    ].join('\n'),
  };
}
