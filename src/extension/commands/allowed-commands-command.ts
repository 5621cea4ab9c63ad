/**
 * Manage Allowed Commands: the commands answered "Always for this workspace" are listed, each checked;
 * unchecking one forgets it (the next time an agent wants it, the user is asked again). The patterns of
 * `agentTeam.allowedCommands` are shown beside them, to be changed in the settings.
 */
import * as vscode from 'vscode';
import type { AgentTeamHost } from '../host.js';
import { readSettings } from '../configuration.js';
import { showInfo } from '../notify.js';

export async function manageAllowedCommands(host: AgentTeamHost): Promise<void> {
  const approval = (await host.engine()).commandApproval;
  const remembered = approval.allowedForWorkspace();
  const fromSettings = readSettings(vscode.workspace.isTrusted).allowedCommands;
  if (remembered.length === 0) {
    const settingsNote = fromSettings.length > 0 ? vscode.l10n.t(' Your settings allow: {0}.', fromSettings.join(', ')) : '';
    showInfo(vscode.l10n.t('No command is allowed always for this workspace.{0}', settingsNote));
    return;
  }
  const items = remembered.map((command) => ({ label: command, picked: true }));
  const kept = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Commands allowed always for this workspace'),
    placeHolder: vscode.l10n.t('Uncheck the ones agents must ask for again'),
    canPickMany: true,
    ignoreFocusOut: true,
  });
  if (!kept) return;
  const forgotten = await approval.keepOnly(kept.map((item) => item.label));
  if (forgotten.length === 0) return;
  host.log.info(`Forgot ${forgotten.length} command(s) allowed for this workspace.`);
  showInfo(vscode.l10n.t('Agents will ask again before running: {0}', forgotten.join(', ')));
}
