/**
 * Undo Accepted Changes: puts back what a run's accepts wrote (engine/runs/checkpoints/: each file's
 * content before, byte for byte; files the accepts created deleted), for the whole run or one file. From
 * a run row's context menu (the run), the palette (a run picked among those with accepted files, then all
 * of its files or one), or `executeCommand(id, runId, path?)`. All or nothing: a file changed since the
 * accept is named and nothing is written, unless the user says Undo Anyway. The undo is a restore point
 * of its own: the same command again (Undo the Undo, on the notification) puts the accepted content back.
 */
import * as vscode from 'vscode';
import { isTerminal, restoredPaths, undoAccepted, type UndoOutcome, WorkspaceBytes } from '../../engine/index.js';
import type { AgentTeamHost } from '../host.js';
import { foreignRunAllowed } from '../foreign-runs.js';
import { confirmModal, showInfo, showWarning } from '../notify.js';
import { pickTask } from './task-picker.js';
import { commandIds } from '../contribution-ids.js';

export async function undoAcceptedChanges(
  host: AgentTeamHost,
  runArgument?: unknown,
  pathArgument?: unknown,
): Promise<UndoOutcome | undefined> {
  await host.historyLoaded;
  if (!host.folder()) {
    showWarning(vscode.l10n.t('Open the folder the changes were accepted in to undo them.'));
    return undefined;
  }
  const runId = await chooseRun(host, runArgument);
  if (runId === undefined) return undefined;
  const contents = await host.runHistory.read(runId);
  const points = contents?.restorePoints ?? [];
  if (!contents || points.length === 0) {
    showInfo(vscode.l10n.t('Run {0} has no accepted changes to undo.', runId));
    return undefined;
  }
  if (!(await foreignRunAllowed(contents.signature, runId, 'undo'))) return undefined;
  const chosen = typeof pathArgument === 'string' ? pathArgument : runArgument === undefined ? await chooseFile(restoredPaths(points)) : '';
  if (chosen === undefined) return undefined;
  const paths = chosen === '' ? undefined : new Set([chosen]);
  const bytes = new WorkspaceBytes((await host.workspace()).root);
  const undo = (force: boolean) => undoAccepted({ runId, points, ...(paths ? { paths } : {}), force }, bytes, host.runHistory);
  let outcome = await undo(false);
  if (outcome.status === 'refused') {
    const named = outcome.refused.map((file) => `${file.path}: ${file.reason}`).join('\n');
    host.log.warn(`Undo Accepted Changes of run ${runId} refused; nothing was written:\n${named}`);
    const forceable = outcome.refused.some((file) => file.forceable);
    const anyway =
      forceable &&
      (await confirmModal(
        vscode.l10n.t('Nothing was undone: {0} changed since the accept.', outcome.refused.map((file) => file.path).join(', ')),
        vscode.l10n.t('Undo Anyway'),
        `${named}\n\n${vscode.l10n.t('Undo Anyway writes over those changes; undoing again brings them back.')}`,
      ));
    if (!anyway) {
      if (!forceable) showWarning(vscode.l10n.t('Nothing was undone: {0}', named));
      return outcome;
    }
    outcome = await undo(true);
  }
  if (outcome.status === 'done') {
    const undonePaths = outcome.files.map((file) => file.path);
    const taskIds = points
      .filter((point) => point.kind === 'accept' && point.files.some((file) => undonePaths.includes(file.path)))
      .flatMap((point) => point.taskIds);
    host.undoneFiles.record([...new Set(taskIds)], undonePaths, outcome.direction === 'undo');
  }
  report(host, outcome, runId, chosen);
  return outcome;
}

function report(host: AgentTeamHost, outcome: UndoOutcome, runId: string, path: string): void {
  if (outcome.status === 'nothing') return showInfo(vscode.l10n.t('Run {0}: nothing to undo ({1}).', runId, outcome.why));
  if (outcome.status !== 'done') return;
  const files = outcome.files.map((file) => file.path).join(', ');
  host.log.info(
    `Undo Accepted Changes of run ${runId} (${outcome.direction}): ${outcome.files.map((file) => `${file.path} ${file.action}${file.forced ? ' (forced)' : ''}`).join(', ')}`,
  );
  for (const file of [...outcome.refused, ...outcome.failed])
    host.log.warn(`Undo Accepted Changes of run ${runId}: not written: ${file.path}: ${file.reason}`);
  const again = {
    title: outcome.direction === 'undo' ? vscode.l10n.t('Undo the Undo') : vscode.l10n.t('Undo Again'),
    run: () => vscode.commands.executeCommand(commandIds.undoAccepted, runId, path),
  };
  const problems = outcome.refused.length + outcome.failed.length;
  const message =
    outcome.direction === 'undo'
      ? vscode.l10n.t('Undid the accepted changes of run {0}: {1}.', runId, files)
      : vscode.l10n.t('Put the accepted changes of run {0} back: {1}.', runId, files);
  if (problems > 0) showWarning(vscode.l10n.t('{0} {1} file(s) were not written: see the output.', message, problems), again);
  else showInfo(message, ...(outcome.recorded ? [again] : []));
}

/**
 * The run given (a subagent's id names its run), or one picked among the finished runs. Every finished run
 * is offered, those with files accepted in this window said so: after a reload a run's accepted files are
 * known only to its run log, which is read for the run picked, not for every run of the history.
 */
async function chooseRun(host: AgentTeamHost, runArgument: unknown): Promise<string | undefined> {
  if (typeof runArgument === 'string' && runArgument !== '') return host.taskManager.get(runArgument)?.rootId ?? runArgument;
  const accepted = (rootId: string) =>
    host.taskManager.treeOf(rootId).some((task) =>
      host.changes
        .get(task.id)
        ?.snapshot()
        .files.some((file) => file.status === 'applied'),
    );
  const runs = host.taskManager.list().filter((task) => task.parentId === null && isTerminal(task.status));
  if (runs.length === 0) {
    showInfo(vscode.l10n.t('No Agent Team run has finished: there are no accepted changes to undo.'));
    return undefined;
  }
  return pickTask(runs, {
    title: vscode.l10n.t('Undo Accepted Changes'),
    placeHolder: vscode.l10n.t('Pick the run whose accepted changes to undo'),
    describe: (task) => (accepted(task.id) ? vscode.l10n.t('files accepted') : undefined),
  });
}

/** '' for every file of the run, a path for one, undefined when cancelled. */
async function chooseFile(paths: readonly string[]): Promise<string | undefined> {
  if (paths.length <= 1) return '';
  const all = { label: vscode.l10n.t('All files'), description: paths.join(', '), path: '' };
  const picked = await vscode.window.showQuickPick([all, ...paths.map((path) => ({ label: path, path }))], {
    title: vscode.l10n.t('Undo Accepted Changes'),
    placeHolder: vscode.l10n.t('Undo every accepted file of the run, or one'),
  });
  return picked?.path;
}
