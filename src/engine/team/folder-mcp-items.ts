/**
 * The folder's own MCP configuration files (`.mcp.json`, `.vscode/mcp.json`) as items of its executable
 * configuration: each server's command line or address, as a role file's servers are listed
 * (folder-role-items.ts), `${input:id}` placeholders as written (the values the user types are never part
 * of it). A refused entry starts nothing and is not listed; a file that cannot be read is a problem.
 */
import type { CatalogEntry } from '../mcp/mcp-catalog.js';
import { readWorkspaceMcpFiles } from '../mcp/mcp-config-files.js';
import type { FolderItem, FolderPlace } from './folder-item.js';
import { serverItem } from './folder-role-items.js';

export async function mcpFileItems(place: FolderPlace): Promise<{ items: FolderItem[]; problems: string[] }> {
  const files = await readWorkspaceMcpFiles(place.root);
  const items = files.flatMap((file) => file.servers.flatMap((server) => (server.config ? [configuredServerItem(server)] : [])));
  return { items, problems: files.flatMap((file) => (file.problem ? [file.problem] : [])) };
}

/** One configured server as an item (what trust and first-use approval are recorded against). */
export function configuredServerItem(server: Pick<CatalogEntry, 'name' | 'file' | 'config'>): FolderItem {
  if (!server.config) throw new Error(`MCP server '${server.name}' has no configuration to list`);
  return serverItem(server.file, `MCP server '${server.name}' of ${server.file}`, server.config);
}
