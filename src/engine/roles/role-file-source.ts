/**
 * Read access to the workspace's role files, supplied by the host: `NodeRoleFileSource` for the CLI and
 * tests, one over `vscode.workspace.fs` in the extension. Paths are relative to the workspace root and
 * `/`-separated.
 */
export interface RoleFileSource {
  /** The names of the files directly in `directory`; an empty list when the directory does not exist. */
  list(directory: string): Promise<string[]>;
  /** The file's text (UTF-8). Rejects when it cannot be read. */
  read(path: string): Promise<string>;
}

/**
 * Lets the registry hear about changes to role files. The host calls `onChange` whenever something under
 * the role directories may have changed (extra calls are cheap: the registry debounces and compares), and
 * the returned function stops watching.
 */
export type RoleWatch = (onChange: () => void) => () => void;
