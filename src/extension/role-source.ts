/**
 * Role files (`.agent-team/agents`, `.claude/agents`, `.github/agents`) read through `vscode.workspace.fs`
 * and watched with a `FileSystemWatcher`, for the engine's `RoleRegistry`.
 */
import * as vscode from 'vscode';
import type { RoleFileSource, RoleWatch } from '../engine/team/roles/index.js';
import { roleFileLocations } from '../engine/team/roles/index.js';

export class HostRoleFileSource implements RoleFileSource {
  constructor(private readonly root: vscode.Uri) {}

  async list(directory: string): Promise<string[]> {
    let entries: Array<[string, vscode.FileType]>;
    try {
      entries = await vscode.workspace.fs.readDirectory(this.resolve(directory));
    } catch (error) {
      // No directory means no roles in that format, which is the usual case.
      if (error instanceof vscode.FileSystemError && (error.code === 'FileNotFound' || error.code === 'FileNotADirectory')) return [];
      throw error;
    }
    return entries
      .filter(([, type]) => (type & vscode.FileType.File) !== 0)
      .map(([name]) => name)
      .sort();
  }

  async read(path: string): Promise<string> {
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(this.resolve(path)));
  }

  private resolve(path: string): vscode.Uri {
    return path === '' ? this.root : vscode.Uri.joinPath(this.root, ...path.split('/'));
  }
}

/** Calls back on any change under the role directories' top folders; the registry debounces. */
export function watchRoleFiles(folder: vscode.WorkspaceFolder): RoleWatch {
  const tops = [...new Set(roleFileLocations.map((location) => location.directory.split('/')[0]))];
  return (onChange) => {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, `{${tops.join(',')}}/**`));
    const subscriptions = [watcher, watcher.onDidCreate(onChange), watcher.onDidChange(onChange), watcher.onDidDelete(onChange)];
    return () => {
      for (const subscription of subscriptions) subscription.dispose();
    };
  };
}
