/**
 * Runs whose log does not verify as written by this user's Agent Team in this workspace's storage
 * (run-log-signature.ts): edited, copied in, another user's, or written before run logs were signed.
 * Resume and Apply to Branch ask first, in a modal whose "… Anyway" is the CLI's `--force`: resuming one
 * would hand its agents text the user may never have written, as the user's; applying it would commit
 * proposals that may not be the agents' work.
 */
import * as vscode from 'vscode';
import { describeForeign, type RunSignature } from '../engine/index.js';

/** True when the run may go on: it is the user's own (or not in the run log at all), or the user said so. */
export async function foreignRunAllowed(
  signature: RunSignature | undefined,
  runId: string,
  action: 'resume' | 'apply' | 'undo',
): Promise<boolean> {
  if (signature?.status !== 'foreign') return true;
  if (action === 'undo')
    return (
      (await vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Run {0} is foreign: {1}. The files and contents its restore points name may not be yours.',
          runId,
          describeForeign(signature),
        ),
        { modal: true },
        vscode.l10n.t('Undo Anyway'),
      )) === vscode.l10n.t('Undo Anyway')
    );
  const anyway = action === 'resume' ? vscode.l10n.t('Resume Anyway') : vscode.l10n.t('Apply Anyway');
  const message =
    action === 'resume'
      ? vscode.l10n.t(
          'Run {0} is foreign: {1}. Resuming it would give its agents text you may never have written, as yours.',
          runId,
          describeForeign(signature),
        )
      : vscode.l10n.t('Run {0} is foreign: {1}. Its proposals may not be your agents\u2019 work.', runId, describeForeign(signature));
  return (await vscode.window.showWarningMessage(message, { modal: true }, anyway)) === anyway;
}
