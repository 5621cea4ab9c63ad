/**
 * What the sidebar's buttons do. Each action goes through the same command a user could run (so trust
 * checks and validation happen once, in the command); links are opened only after the user confirms,
 * and only the protocol's allowlisted commands run, with arguments the host supplies.
 */
import * as vscode from 'vscode';
import type { AllowedCommand, WebviewMessage } from '../../shared/protocol.js';
import { confirmModal } from '../notify.js';
import type { SetupService } from '../setup-state.js';
import { ensureTrusted } from '../trust.js';

/** The walkthrough contributed in package.json (`contributes.walkthroughs`). */
export const walkthroughId = 'agentTeam.gettingStarted';

export interface WebviewActionHost {
  readonly context: Pick<vscode.ExtensionContext, 'extension'>;
  readonly setup: Pick<SetupService, 'useLocalServer' | 'useLanguageModel'>;
  readonly log: Pick<vscode.LogOutputChannel, 'warn'>;
  /** Hands what the user wrote in a task's composer to the task (an answer, or a message). */
  sendToTask(taskId: string, text: string): Promise<void>;
  /** Ends the chat a chat-mode task waits in. */
  endChat(taskId: string): Promise<void>;
  /** The user's decision on the command a task waits to run. */
  decideCommand(taskId: string, decision: 'once' | 'always' | 'deny'): Promise<void>;
  /** Opens the diff of one proposed file; says so when the task has no such file. */
  openDiff(taskId: string, path: string): Promise<void>;
}

export async function handleWebviewAction(host: WebviewActionHost, message: WebviewMessage): Promise<void> {
  switch (message.type) {
    case 'stop-task':
      await vscode.commands.executeCommand('agentTeam.stopTask', message.taskId);
      return;
    case 'resume-run':
      // The command checks that the run is interrupted and resumable, and says why when it is not.
      await vscode.commands.executeCommand('agentTeam.resumeRun', message.taskId);
      return;
    case 'review-changes':
      await vscode.commands.executeCommand('agentTeam.reviewChanges', message.taskId);
      return;
    case 'run-checks':
      await vscode.commands.executeCommand('agentTeam.runChecks', message.taskId);
      return;
    case 'accept-file':
      await vscode.commands.executeCommand('agentTeam.acceptFile', message.taskId, message.path);
      return;
    case 'reject-file':
      await vscode.commands.executeCommand('agentTeam.rejectFile', message.taskId, message.path);
      return;
    case 'undo-file':
      await vscode.commands.executeCommand('agentTeam.undoAccepted', message.taskId, message.path);
      return;
    case 'open-diff':
      await host.openDiff(message.taskId, message.path);
      return;
    case 'delegate':
      await vscode.commands.executeCommand('agentTeam.delegate');
      return;
    case 'clear-history':
      await vscode.commands.executeCommand('agentTeam.clearHistory');
      return;
    case 'send-message':
      if (!ensureTrusted()) return;
      await host.sendToTask(message.taskId, message.text);
      return;
    case 'end-chat':
      await host.endChat(message.taskId);
      return;
    case 'approve-command':
      // Allowing runs a command: not from a folder the user has not trusted (the engine refuses it too).
      if (message.decision !== 'deny' && !ensureTrusted()) return;
      await host.decideCommand(message.taskId, message.decision);
      return;
    case 'use-local-server':
      if (ensureTrusted()) await host.setup.useLocalServer();
      return;
    case 'use-language-model':
      if (ensureTrusted()) await host.setup.useLanguageModel();
      return;
    case 'open-link':
      await openLink(host, message.url);
      return;
    case 'run-command':
      await runAllowedCommand(host, message.command);
      return;
    case 'ready':
    case 'select-task':
    case 'log':
      return; // handled by the view provider itself
  }
}

/** Opens an http(s) link from model output in the browser, after the user has seen the address. */
export async function openLink(host: Pick<WebviewActionHost, 'log'>, url: string): Promise<boolean> {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = '';
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    host.log.warn(`Sidebar: not opening a link that is not http or https (${protocol || 'unparsable'}).`);
    return false;
  }
  if (!(await confirmModal(vscode.l10n.t('Open this link in your browser?'), vscode.l10n.t('Open'), url))) return false;
  return vscode.env.openExternal(vscode.Uri.parse(url, true));
}

async function runAllowedCommand(host: WebviewActionHost, command: AllowedCommand): Promise<void> {
  if (command === 'workbench.action.openWalkthrough') {
    await vscode.commands.executeCommand(command, `${host.context.extension.id}#${walkthroughId}`, false);
    return;
  }
  await vscode.commands.executeCommand(command);
}
