/**
 * Role files (`.agent-team/agents`, `.claude/agents`, `.github/agents`) read through `vscode.workspace.fs`
 * and watched with a `FileSystemWatcher`, for the engine's `RoleRegistry`.
 */
import * as vscode from 'vscode';
import {
  maxRoleFileBytes,
  NodeRoleFileSource,
  roleFileLocations,
  type RoleFileSource,
  type RoleWatch,
  userRoleLocations,
} from '../engine/index.js';
import path from 'node:path';

export class HostRoleFileSource implements RoleFileSource {
  // A folder on this machine's disk is read by the engine's source, which refuses links leading out of
  // the workspace, FIFOs and devices, and caps the size (vscode.workspace.fs would follow and read them).
  private readonly disk: NodeRoleFileSource | undefined;

  constructor(private readonly root: vscode.Uri) {
    this.disk = root.scheme === 'file' ? new NodeRoleFileSource(root.fsPath) : undefined;
  }

  async list(directory: string): Promise<string[]> {
    if (this.disk) return this.disk.list(directory);
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
    if (this.disk) return this.disk.read(path);
    const info = await vscode.workspace.fs.stat(this.resolve(path));
    if ((info.type & vscode.FileType.File) === 0) throw new Error('it is not a regular file, so it is not read');
    if (info.size > maxRoleFileBytes)
      throw new Error(`it is over the ${maxRoleFileBytes / 1024} KB limit for a role file, so it is not read`);
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(this.resolve(path)));
  }

  private resolve(path: string): vscode.Uri {
    return path === '' ? this.root : vscode.Uri.joinPath(this.root, ...path.split('/'));
  }
}

/** Calls back on any change to a workflow file (its problems go to the Problems view); returns the stop. */
export function watchWorkflowFiles(folder: vscode.WorkspaceFolder, onChange: () => void): () => void {
  return watchFolder(folder, '.agent-team/workflows/**', onChange);
}

/** Calls back on every creation, change and deletion under `glob`; returns the stop. */
function watchFolder(folder: vscode.WorkspaceFolder | vscode.Uri, glob: string, onChange: () => void): () => void {
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob));
  const subscriptions = [watcher, watcher.onDidCreate(onChange), watcher.onDidChange(onChange), watcher.onDidDelete(onChange)];
  return () => {
    for (const subscription of subscriptions) subscription.dispose();
  };
}

/**
 * Calls back on any change under the role directories' top folders, and in the user's own role folders
 * (`~/.claude/agents`, …, VS Code's prompts folder); the registry debounces. A user folder that does not
 * exist yet is watched from its parent, so creating it counts too.
 */
export function watchRoleFiles(folder: vscode.WorkspaceFolder, home?: string, promptsDirectory?: string): RoleWatch {
  const tops = [...new Set(roleFileLocations.map((location) => location.directory.split('/')[0]))];
  const userFolders =
    home === undefined
      ? []
      : [...new Set(userRoleLocations(promptsDirectory).map((location) => location.directory))].map((directory) =>
          path.join(home, ...directory.split('/')),
        );
  return (onChange) => {
    const stops = [
      watchFolder(folder, `{${tops.join(',')}}/**`, onChange),
      ...userFolders.map((directory) => watchUserFolder(directory, onChange)),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  };
}

/**
 * One folder of the user's, without recursion (`~/.claude` holds far more than agents): its files, and the
 * folder itself from its parent, so that a folder created (or re-created) later is watched from then on.
 */
function watchUserFolder(directory: string, onChange: () => void): () => void {
  let files = watchFolder(vscode.Uri.file(directory), '*', onChange);
  const itself = watchFolder(vscode.Uri.file(path.dirname(directory)), path.basename(directory), () => {
    files();
    files = watchFolder(vscode.Uri.file(directory), '*', onChange);
    onChange();
  });
  return () => {
    files();
    itself();
  };
}

/**
 * VS Code's user prompts folder (`<user data>/User/prompts`), found beside the extension's global storage
 * (`<user data>/User/globalStorage/<extension>`), relative to the home as the user role source reads it;
 * undefined where it lies outside the home (a portable install) or the storage is not on disk.
 */
export function userPromptsDirectory(globalStorage: vscode.Uri | undefined, home: string): string | undefined {
  if (globalStorage?.scheme !== 'file') return undefined;
  const prompts = path.join(path.dirname(path.dirname(globalStorage.fsPath)), 'prompts');
  const relative = path.relative(home, prompts);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? undefined : relative.split(path.sep).join('/');
}
