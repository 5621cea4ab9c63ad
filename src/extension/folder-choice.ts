/**
 * Which folder the agents work in, in a multi-root workspace: never silently the first. The window's
 * engine works in one folder (its roles, history and proposals are that folder's), chosen at first use:
 * the only folder; else the folder of the active editor; else the user picks one. The choice holds for
 * the window's life (tasks under way keep their folder) and is said in the log.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ConfigurationError } from '../engine/index.js';

/** The folders agents can work in: those on disk (a virtual folder has no files for commands). */
export function localFolders(): readonly vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
}

/** The folder there is no doubt about: the only one, or the one holding the active editor's file. */
export function unambiguousFolder(): vscode.WorkspaceFolder | undefined {
  const folders = localFolders();
  if (folders.length <= 1) return folders[0];
  const document = vscode.window.activeTextEditor?.document.uri;
  if (document?.scheme !== 'file') return undefined;
  // The innermost folder holding it (a folder may be nested in another of the workspace).
  const holding = folders.filter((folder) => isInside(document.fsPath, folder.uri.fsPath));
  return holding.sort((a, b) => b.uri.fsPath.length - a.uri.fsPath.length)[0];
}

/** The folder to work in: the unambiguous one, else the user's pick. Throws `ConfigurationError` when none is open or none picked. */
export async function chooseWorkFolder(): Promise<vscode.WorkspaceFolder> {
  const folders = localFolders();
  if (folders.length === 0) {
    throw new ConfigurationError(
      'Agent Team needs a folder to work in. Open the folder the agents should work on (File > Open Folder), then try again.',
    );
  }
  const known = unambiguousFolder();
  if (known) return known;
  const picked = await vscode.window.showQuickPick(
    folders.map((folder) => ({ label: folder.name, description: folder.uri.fsPath, folder })),
    {
      title: vscode.l10n.t('Agent Team: Which Folder?'),
      placeHolder: vscode.l10n.t('The folder the agents work in for this window (its roles, history and proposals)'),
      ignoreFocusOut: true,
    },
  );
  if (!picked)
    throw new ConfigurationError(
      vscode.l10n.t(
        'No folder was chosen. In a workspace of several folders Agent Team works in one: pick it when asked, or start from an editor of that folder.',
      ),
    );
  return picked.folder;
}

function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
