/**
 * Registers every command. Each goes through one wrapper: Restricted Mode is refused (whether the
 * command came from the palette, a menu, the sidebar or `executeCommand`), and failures become a
 * notification that says what to do next instead of an unhandled rejection.
 */
import * as vscode from 'vscode';
import type { AgentTeamHost } from '../host.js';
import { ensureTrusted } from '../trust.js';
import { removeApiKey, setApiKey } from './api-key-command.js';
import { delegate } from './delegate-command.js';
import { reportCommandError } from './errors.js';
import { exportTrace } from './export-trace-command.js';
import { requestChanges } from './request-changes-command.js';
import { rerunAndCompare } from './rerun-command.js';
import { selectModel } from './select-model-command.js';
import { planAndDelegate, runWorkflow } from './orchestration-commands.js';
import { decideAll, decideFile, decideHunk, reviewChanges } from './review-commands.js';
import { clearHistory, copyPrompt, showTask, stopAll, stopTask } from './task-commands.js';

export const commandIds = {
  delegate: 'agentTeam.delegate',
  stopTask: 'agentTeam.stopTask',
  stopAll: 'agentTeam.stopAll',
  showTask: 'agentTeam.showTask',
  reviewChanges: 'agentTeam.reviewChanges',
  setApiKey: 'agentTeam.setApiKey',
  clearHistory: 'agentTeam.clearHistory',
  acceptFile: 'agentTeam.acceptFile',
  rejectFile: 'agentTeam.rejectFile',
  acceptHunk: 'agentTeam.acceptHunk',
  rejectHunk: 'agentTeam.rejectHunk',
  runWorkflow: 'agentTeam.runWorkflow',
  planAndDelegate: 'agentTeam.planAndDelegate',
  selectModel: 'agentTeam.selectModel',
  acceptAllChanges: 'agentTeam.acceptAllChanges',
  rejectAllChanges: 'agentTeam.rejectAllChanges',
  requestChanges: 'agentTeam.requestChanges',
  removeApiKey: 'agentTeam.removeApiKey',
  rerunAndCompare: 'agentTeam.rerunAndCompare',
  exportTrace: 'agentTeam.exportTrace',
  copyPrompt: 'agentTeam.copyPrompt',
} as const;

type Handler = (...args: unknown[]) => unknown;

/** Commands that only show something; all others refuse in Restricted Mode. */
const readOnlyCommands: ReadonlySet<string> = new Set([commandIds.showTask, commandIds.copyPrompt]);

/**
 * A sidebar row's context menu calls a command with the row's `data-vscode-context` object; the commands
 * take the task's id, as the palette and the other menus give it.
 */
function fromRowContextMenu(args: unknown[]): unknown[] {
  const [first, ...rest] = args;
  const context = first as { webviewSection?: unknown; taskId?: unknown } | undefined;
  if (typeof context === 'object' && context !== null && context.webviewSection === 'task' && typeof context.taskId === 'string') return [context.taskId, ...rest];
  return args;
}

export function registerCommands(host: AgentTeamHost): vscode.Disposable[] {
  const handlers: Record<string, Handler> = {
    [commandIds.delegate]: (first, second) => delegate(host, first, second),
    [commandIds.stopTask]: (taskId) => stopTask(host, taskId),
    [commandIds.stopAll]: () => stopAll(host),
    [commandIds.showTask]: (taskId) => showTask(host, taskId),
    [commandIds.reviewChanges]: (taskId) => reviewChanges(host, taskId),
    [commandIds.setApiKey]: (provider) => setApiKey(host, provider),
    [commandIds.clearHistory]: () => clearHistory(host),
    [commandIds.acceptFile]: (...args) => decideFile(host, 'accept', args),
    [commandIds.rejectFile]: (...args) => decideFile(host, 'reject', args),
    [commandIds.acceptHunk]: (...args) => decideHunk(host, 'accept', args),
    [commandIds.rejectHunk]: (...args) => decideHunk(host, 'reject', args),
    [commandIds.runWorkflow]: (name, input) => runWorkflow(host, name, input),
    [commandIds.planAndDelegate]: (task) => planAndDelegate(host, task),
    [commandIds.selectModel]: () => selectModel(host),
    [commandIds.acceptAllChanges]: (taskId) => decideAll(host, 'accept', taskId),
    [commandIds.rejectAllChanges]: (taskId) => decideAll(host, 'reject', taskId),
    [commandIds.requestChanges]: (taskId) => requestChanges(host, taskId),
    [commandIds.removeApiKey]: (provider) => removeApiKey(host, provider),
    [commandIds.rerunAndCompare]: (taskId) => rerunAndCompare(host, taskId),
    [commandIds.exportTrace]: (taskId) => exportTrace(host, taskId),
    [commandIds.copyPrompt]: (taskId) => copyPrompt(host, taskId),
  };
  return Object.entries(handlers).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      if (!readOnlyCommands.has(id) && !ensureTrusted()) return undefined;
      try {
        return await handler(...fromRowContextMenu(args));
      } catch (error) {
        reportCommandError(id, error, host.log, host.redactor);
        return undefined;
      }
    }),
  );
}
