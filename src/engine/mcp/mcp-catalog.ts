/**
 * Every MCP server configured outside role files, from every file that configures them, and which one a
 * name means: the workspace's `.mcp.json` first, then `.vscode/mcp.json`, then the user's own file (Claude
 * Code's order: the project's servers before the user's). A server of the same name further down is listed
 * as shadowed, so `agent-team mcp-servers` shows it and why it does not run. Read anew at each task's start
 * (a few small files): a server added since the last task is there.
 */
import type { ConfiguredServer, McpConfigFile } from './mcp-config-files.js';
import { readUserMcpFile, readWorkspaceMcpFiles } from './mcp-config-files.js';

export interface CatalogEntry extends ConfiguredServer {
  /** The file whose server of the same name is used instead. Default: this one is used. */
  shadowedBy?: string;
}

export interface McpCatalog {
  /** Every server found, in precedence order, shadowed ones included. */
  entries: CatalogEntry[];
  /** Files that could not be read or parsed. */
  problems: string[];
}

export interface McpCatalogPlace {
  /** The workspace root. */
  root: string;
  /** The user's files, in precedence order (mcp-config-files.ts userMcpConfigPath; VS Code's user mcp.json), each with how it is named to the user. Default: none read. */
  userFiles?: ReadonlyArray<{ path: string; shown: string }>;
}

export async function readMcpCatalog(place: McpCatalogPlace): Promise<McpCatalog> {
  const files: McpConfigFile[] = [...(await readWorkspaceMcpFiles(place.root))];
  for (const userFile of place.userFiles ?? []) {
    const user = await readUserMcpFile(userFile.path, place.root, userFile.shown);
    if (user) files.push(user);
  }
  const winners = new Map<string, string>();
  const entries: CatalogEntry[] = [];
  for (const file of files) {
    for (const server of file.servers) {
      const winner = winners.get(server.name);
      if (winner === undefined) winners.set(server.name, file.file);
      entries.push(winner === undefined ? server : { ...server, shadowedBy: winner });
    }
  }
  return { entries, problems: files.flatMap((file) => (file.problem ? [file.problem] : [])) };
}

/** The server a name means (the first of that name), or undefined when none is configured. */
export function catalogServer(catalog: McpCatalog, name: string): CatalogEntry | undefined {
  return catalog.entries.find((entry) => entry.name === name && entry.shadowedBy === undefined);
}
