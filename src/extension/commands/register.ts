/**
 * Every command's handler. Each goes through one wrapper: Restricted Mode is refused (whether the
 * command came from the palette, a menu, the sidebar or `executeCommand`), and failures become a
 * notification that says what to do next instead of an unhandled rejection.
 */
import type { AgentTeamHost } from '../host.js';
import { commandIds } from '../contribution-ids.js';
import { ensureTrusted } from '../trust.js';
import { removeApiKey, setApiKey } from './api-key-command.js';
import { applyToBranch } from './apply-to-branch-command.js';
import { compactTask } from './compact-command.js';
import { delegate } from './delegate-command.js';
import { reportCommandError } from './errors.js';
import { exportTrace } from './export-trace-command.js';
import { requestChanges } from './request-changes-command.js';
import { rerunAndCompare } from './rerun-command.js';
import { setRemoteAgentToken } from './remote-token-command.js';
import { manageAllowedCommands } from './allowed-commands-command.js';
import { newRole } from './new-role-command.js';
import { resumeRun } from './resume-run-command.js';
import { runChecks } from './run-checks-command.js';
import { undoAcceptedChanges } from './undo-accepted-command.js';
import { selectModel } from './select-model-command.js';
import { planAndDelegate, runWorkflow } from './orchestration-commands.js';
import { decideAll, decideFile, decideHunk, reviewChanges } from './review-commands.js';
import { clearHistory, copyPrompt, showTask, stopAll, stopTask } from './task-commands.js';

export { commandIds };

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
  if (typeof context === 'object' && context !== null && context.webviewSection === 'task' && typeof context.taskId === 'string')
    return [context.taskId, ...rest];
  return args;
}

/**
 * Every command's handler, by id, as it runs: refused in Restricted Mode unless it only shows something,
 * called with a task id when it came from a row's context menu, and failures reported, never thrown.
 */
export function commandHandlers(host: AgentTeamHost): Record<string, Handler> {
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
    [commandIds.setRemoteAgentToken]: (name) => setRemoteAgentToken(host, name),
    [commandIds.manageAllowedCommands]: () => manageAllowedCommands(host),
    [commandIds.newRole]: () => newRole(host),
    [commandIds.resumeRun]: (taskId) => resumeRun(host, taskId),
    [commandIds.applyToBranch]: (taskId) => applyToBranch(host, taskId),
    [commandIds.runChecks]: (taskId) => runChecks(host, taskId),
    [commandIds.undoAccepted]: (runId, path) => undoAcceptedChanges(host, runId, path),
    [commandIds.compactTask]: (taskId) => compactTask(host, taskId),
  };
  return Object.fromEntries(
    Object.entries(handlers).map(([id, handler]) => [
      id,
      async (...args: unknown[]) => {
        if (!readOnlyCommands.has(id) && !ensureTrusted()) return undefined;
        try {
          return await handler(...fromRowContextMenu(args));
        } catch (error) {
          reportCommandError(id, error, host.log, host.redactor);
          return undefined;
        }
      },
    ]),
  );
}
