/**
 * After a reload or a crash, the runs that were working say so once, with Resume at hand: the sidebar
 * shows them `interrupted`, but a user who does not open it would not know work was left half done.
 * Each run is announced once (remembered in the workspace state), not at every window that opens.
 */
import * as vscode from 'vscode';
import type { TaskSnapshot } from '../engine/index.js';
import { commandAction, showInfo } from './notify.js';

const shownKey = 'agentTeam.interruptedRunsShown';
/** Ids remembered at most: old ones are long gone from the history. */
const rememberedRuns = 200;

export async function announceInterruptedRuns(tasks: readonly TaskSnapshot[], state: vscode.Memento): Promise<void> {
  const shown = new Set(state.get<string[]>(shownKey) ?? []);
  const fresh = tasks.filter((task) => task.parentId === null && task.status === 'interrupted' && !shown.has(task.id));
  if (fresh.length === 0) return;
  await state.update(shownKey, [...shown, ...fresh.map((task) => task.id)].slice(-rememberedRuns));
  const [only] = fresh;
  if (fresh.length === 1 && only) {
    showInfo(
      vscode.l10n.t('Agent Team: the run "{0}" was interrupted before it finished (the window closed).', only.description),
      commandAction(vscode.l10n.t('Resume'), 'agentTeam.resumeRun', only.id),
    );
    return;
  }
  showInfo(
    vscode.l10n.t('Agent Team: {0} runs were interrupted before they finished (the window closed).', fresh.length),
    commandAction(vscode.l10n.t('Resume…'), 'agentTeam.resumeRun'),
  );
}
