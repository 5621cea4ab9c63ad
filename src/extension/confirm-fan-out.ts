import * as vscode from 'vscode';
import type { FanOutRequest } from '../engine/index.js';

/** Asks, in a modal, whether one turn may start this many subagents at once. */
export async function confirmFanOut(request: FanOutRequest): Promise<boolean> {
  const shown = request.descriptions.slice(0, 10).join('; ');
  const more = request.descriptions.length > 10 ? vscode.l10n.t('; and {0} more', request.descriptions.length - 10) : '';
  const allow = vscode.l10n.t('Allow');
  const picked = await vscode.window.showWarningMessage(
    vscode.l10n.t('The {0} ({1}) wants to start {2} subagents at once.', request.role, request.taskId, request.count),
    {
      modal: true,
      detail: vscode.l10n.t(
        '{0}{1}.\n\nMore than agentTeam.confirmFanOutAbove subagents in one step ask first. Deny: none starts, and the {2} is told to start fewer.',
        shown,
        more,
        request.role,
      ),
    },
    allow,
  );
  return picked === allow;
}
