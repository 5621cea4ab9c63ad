/**
 * Everything behind the activation shell (extension.ts): the host with its engine, task manager, sidebar
 * and review, the commands' handlers, @team's handler and the delegate tool. Built as a bundle of its own
 * (dist/extension-core.js) and loaded on first use, so that activating the extension compiles none of it.
 */
import * as vscode from 'vscode';
import { handleTeamRequest } from './chat/team-participant.js';
import { DelegateTool } from './chat/delegate-tool.js';
import { commandHandlers } from './commands/register.js';
import { EndOfRunNotifier } from './end-notifications.js';
import { AgentTeamHost, type HostOptions } from './host.js';
import { RunningTasksStatus } from './status-bar.js';

export interface ExtensionCore {
  host: AgentTeamHost;
  /** Each contributed command's handler, by id. */
  commands: Record<string, (...args: unknown[]) => unknown>;
  chatHandler: vscode.ChatRequestHandler;
  delegateTool: DelegateTool;
}

export function startCore(context: vscode.ExtensionContext, options: HostOptions): ExtensionCore {
  const host = new AgentTeamHost(context, options);
  context.subscriptions.push(
    host,
    new RunningTasksStatus(host.taskManager),
    new EndOfRunNotifier({
      taskManager: host.taskManager,
      pendingFileCount: (taskId) => host.review.pendingFileCount(taskId),
      redactor: host.redactor,
    }),
  );
  host.log.info(
    `Agent Team activated${vscode.workspace.isTrusted ? '' : ' in Restricted Mode: agents will not run until the folder is trusted'}.`,
  );
  return {
    host,
    commands: commandHandlers(host),
    chatHandler: (request, chatContext, stream, token) => handleTeamRequest(host, request, chatContext, stream, token),
    delegateTool: new DelegateTool(host),
  };
}
