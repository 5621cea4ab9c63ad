/**
 * Run Checks Again (`agentTeam.runChecks`): the repository's checks on exactly what a run proposes now.
 * From a run's row (context menu), its detail view, the line above each file of the review, or the
 * palette: the run given, else the review in front, else a pick of the runs with proposals waiting.
 * Runs even when `agentTeam.checks` is off (the user asked); the engine still refuses checks in an
 * untrusted folder, without a sandbox or without the user's approval.
 */
import * as vscode from 'vscode';
import type { AgentTeamHost } from '../host.js';
import { showInfo } from '../notify.js';
import { pendingProposals } from '../../engine/index.js';
import { pickTask } from './task-picker.js';

export async function runChecks(host: AgentTeamHost, taskId?: unknown): Promise<void> {
  await host.historyLoaded;
  const given = typeof taskId === 'string' && taskId !== '' ? taskId : (host.review.activeReview() ?? host.review.activeProposal()?.taskId);
  let runId = given === undefined ? undefined : (host.taskManager.get(given)?.rootId ?? given);
  if (runId === undefined) {
    const waiting = host.taskManager
      .list()
      .filter((task) => task.parentId === null && pendingProposals(host.changes, host.taskManager, task.id).taskIds.length > 0);
    if (waiting.length === 0) {
      showInfo(vscode.l10n.t('No proposed changes are waiting for review: there is nothing to check.'));
      return;
    }
    runId = await pickTask(waiting, {
      title: vscode.l10n.t('Run Checks Again'),
      placeHolder: vscode.l10n.t("Pick the run whose proposals the repository's checks should run on"),
      describe: (task) => host.checks.get(task.id)?.summary,
    });
    if (runId === undefined) return;
  }
  if (pendingProposals(host.changes, host.taskManager, runId).taskIds.length === 0) {
    showInfo(vscode.l10n.t('Run {0} has no proposed changes waiting for review: there is nothing to check.', runId));
    return;
  }
  void host.sidebar.reveal(runId);
  const run = await host.checks.run(runId, { again: true });
  // Undefined also when a newer Run Checks Again took over: that one is running then.
  if (!run && host.checks.get(runId)?.state !== 'running')
    showInfo(vscode.l10n.t('Checks are not available: the engine has no checks service.'));
}
