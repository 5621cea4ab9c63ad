/**
 * The folder the window's agents work in, and its `Workspace`: chosen once (multi-root: folder-choice.ts),
 * never silently the first, and kept for the window; the `HostWorkspace` over it is built on first use.
 */
import * as vscode from 'vscode';
import { chooseWorkFolder, localFolders, unambiguousFolder } from './folder-choice.js';
import { HostWorkspace } from './host-workspace.js';
import { findBundledRipgrep } from './ripgrep.js';

export class WorkFolder {
  private chosen: vscode.WorkspaceFolder | undefined;
  private choosing: Promise<vscode.WorkspaceFolder> | undefined;
  private hostWorkspace: Promise<HostWorkspace> | undefined;

  constructor(private readonly log: Pick<vscode.LogOutputChannel, 'info'>) {}

  /**
   * The one chosen when the engine was built, else the one there is no doubt about (the only folder, or
   * the active editor's); undefined in a multi-root workspace before the choice.
   */
  current(): vscode.WorkspaceFolder | undefined {
    return this.chosen ?? unambiguousFolder();
  }

  /** Asked for when the workspace leaves it open; kept for the window (a failed choice is asked again). */
  choose(): Promise<vscode.WorkspaceFolder> {
    this.choosing ??= chooseWorkFolder().then((folder) => {
      this.chosen = folder;
      if (localFolders().length > 1) this.log.info(`Agent Team works in the folder ${folder.name} (${folder.uri.fsPath}) for this window.`);
      return folder;
    });
    this.choosing.catch(() => (this.choosing = undefined));
    return this.choosing;
  }

  /** The folder's `Workspace` (sees unsaved editors; writes through WorkspaceEdit), built on first call. */
  workspace(): Promise<HostWorkspace> {
    this.hostWorkspace ??= (async () => {
      const folder = await this.choose();
      const ripgrepPath = await findBundledRipgrep(vscode.env.appRoot);
      this.log.info(
        ripgrepPath ? `Grep uses VS Code's ripgrep: ${ripgrepPath}` : 'Grep uses rg on PATH if there is one, else its JavaScript search.',
      );
      return new HostWorkspace(folder.uri.fsPath, { ripgrepPath });
    })();
    this.hostWorkspace.catch(() => (this.hostWorkspace = undefined));
    return this.hostWorkspace;
  }
}
