/** One item of a folder's executable configuration, and where such items are found (folder-configuration.ts). */
import type { RoleDefinition } from '../roles/types.js';

export type FolderItemKind = 'hook' | 'mcp-server' | 'remote-agent' | 'check';

/** One thing the folder would run or send work to. */
export interface FolderItem {
  kind: FolderItemKind;
  /** The file that defines it, relative to the workspace root with `/` separators (`.claude/settings.json`). */
  file: string;
  /** What it is, for the user: `UserPromptSubmit hook`, `MCP server 'calc' of role 'researcher'`. */
  what: string;
  /** Exactly what would run or be reached: the command line as written, or the address. */
  runs: string;
  /** Everything else that decides what it does (arguments' exact list, environment, headers): hashed, not shown. Default: nothing more. */
  detail?: unknown;
}

/** Where one kind of item is found. */
export interface FolderPlace {
  /** The workspace root. */
  root: string;
  /** The roles in effect (the registry's list): a role a higher-precedence file hides starts nothing. */
  roles: readonly RoleDefinition[];
}

export type FolderItemSource = (place: FolderPlace) => Promise<{ items: FolderItem[]; problems: string[] }>;
