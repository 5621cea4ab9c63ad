/**
 * Agent Team's VS Code entry point. Activation is cheap (the sidebar's view and the commands activate it;
 * never `*`): it registers the view, the commands and the proposal documents, and loads the task history.
 * The engine itself is built on the first delegation; nothing goes over the network here.
 */
import * as vscode from 'vscode';
import { registerCommands } from './commands/register.js';
import { EndOfRunNotifier } from './end-notifications.js';
import { AgentTeamHost, type HostOptions } from './host.js';
import { proposalScheme } from './review/proposal-uri.js';
import { RunningTasksStatus } from './status-bar.js';
import { tasksViewId } from './sidebar/task-view-provider.js';
import { registerDelegateTool } from './chat/delegate-tool.js';
import { registerTeamParticipant } from './chat/team-participant.js';

let activeHost: AgentTeamHost | undefined;

export function activate(context: vscode.ExtensionContext, options: HostOptions = {}): void {
  const host = new AgentTeamHost(context, options);
  activeHost = host;
  context.subscriptions.push(
    host,
    vscode.window.registerWebviewViewProvider(tasksViewId, host.sidebar),
    vscode.workspace.registerTextDocumentContentProvider(proposalScheme, host.proposals),
    ...registerCommands(host),
    new RunningTasksStatus(host.taskManager),
    new EndOfRunNotifier({
      taskManager: host.taskManager,
      pendingFileCount: (taskId) => host.review.pendingFileCount(taskId),
      redactor: host.redactor,
    }),
    ...registerLanguageModelFeatures(host),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      host.log.info('The folder is trusted now: agents can run.');
      void host.setup.refresh();
    }),
  );
  host.log.info(`Agent Team activated${vscode.workspace.isTrusted ? '' : ' in Restricted Mode: agents will not run until the folder is trusted'}.`);
}

/** `@team` in the Chat view and the `agentTeam_delegate` tool, where this VS Code has chat at all. */
function registerLanguageModelFeatures(host: AgentTeamHost): vscode.Disposable[] {
  const registered: vscode.Disposable[] = [];
  if (typeof vscode.chat?.createChatParticipant === 'function') registered.push(registerTeamParticipant(host));
  if (typeof vscode.lm?.registerTool === 'function') registered.push(registerDelegateTool(host));
  return registered;
}

/** Stops running tasks (they are kept in the history as stopped) and saves, before the window closes. */
export async function deactivate(): Promise<void> {
  const host = activeHost;
  activeHost = undefined;
  await host?.close();
}
