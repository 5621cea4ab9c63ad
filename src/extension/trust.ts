/**
 * Restricted Mode: in a folder the user has not trusted, agents do not run and nothing is changed. Every
 * command that would run or change anything asks `ensureTrusted` first, whether it came from the palette,
 * the sidebar or `vscode.commands.executeCommand`.
 */
import * as vscode from 'vscode';

export const restrictedModeMessage = 'Agent Team does not run agents in Restricted Mode. Trust this folder to use it.';
export const manageTrustAction = 'Manage Workspace Trust';
export const manageTrustCommand = 'workbench.trust.manage';

/**
 * True when the workspace is trusted. Otherwise shows why not, with a button to the trust editor, and
 * returns false at once: the caller must not wait on a notification the user may never dismiss.
 */
export function ensureTrusted(): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window.showWarningMessage(restrictedModeMessage, manageTrustAction).then((choice) => {
    if (choice === manageTrustAction) void vscode.commands.executeCommand(manageTrustCommand);
  });
  return false;
}
