/** The editor tabs of a review: which proposal is in front, the left side of its diff, closing its tabs once it is settled. */
import * as vscode from 'vscode';
import { contentHash, type FileChangeSnapshot, type Workspace } from '../../engine/index.js';
import { parseProposalUri } from './proposal-uri.js';

/** The proposal shown in the active editor (a diff's right side or the proposal itself), if any. */
export function activeProposal(): { taskId: string; path: string } | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const candidates: Array<vscode.Uri | undefined> = [
    input instanceof vscode.TabInputTextDiff ? input.modified : undefined,
    input instanceof vscode.TabInputText ? input.uri : undefined,
    vscode.window.activeTextEditor?.document.uri,
  ];
  for (const uri of candidates) {
    const address = uri ? parseProposalUri(uri) : undefined;
    if (address) return { taskId: address.taskId, path: address.path };
  }
  return undefined;
}

/** The workspace file, when its content is still the task's base (so the diff shows only the proposal). */
export async function fileMatchingBase(
  folder: vscode.Uri | undefined,
  workspaceOf: () => Promise<Workspace>,
  file: FileChangeSnapshot,
): Promise<vscode.Uri | undefined> {
  if (!folder || file.isNew || file.baseHash === null) return undefined;
  try {
    const workspace = await workspaceOf();
    if (contentHash(await workspace.readText(file.path)) !== file.baseHash) return undefined;
  } catch {
    return undefined;
  }
  return vscode.Uri.joinPath(folder, ...file.path.split('/'));
}

/** Closes every tab showing the proposal (its diff or the proposal itself): the file is settled. */
export async function closeProposalTabs(taskId: string, path: string): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => {
      const uri =
        tab.input instanceof vscode.TabInputTextDiff
          ? tab.input.modified
          : tab.input instanceof vscode.TabInputText
            ? tab.input.uri
            : undefined;
      const address = uri ? parseProposalUri(uri) : undefined;
      return address?.taskId === taskId && address.path === path;
    });
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}
