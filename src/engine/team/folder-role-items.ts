/**
 * The folder's role files that start servers or send work away, as items of its executable
 * configuration: each stdio MCP server's command line, each http server's address (the task's data goes
 * where the file chooses), each remote role's address. Roles of the user's home are theirs: not listed.
 */
import { displayAddress } from '../a2a/remote-failure.js';
import type { McpServerConfig } from '../roles/mcp-server-config.js';
import type { RoleDefinition } from '../roles/types.js';
import type { FolderItem, FolderPlace } from './folder-item.js';
import { roleOrigin } from '../roles/role-origin.js';

export async function roleItems(place: FolderPlace): Promise<{ items: FolderItem[]; problems: string[] }> {
  const items = place.roles.filter((role) => roleOrigin(role) === 'workspace').flatMap(itemsOf);
  return Promise.resolve({ items, problems: [] });
}

function itemsOf(role: RoleDefinition): FolderItem[] {
  const file = role.source.kind === 'file' ? role.source.path : role.name;
  const servers = Object.entries(role.mcpServers ?? {}).map(([name, server]) =>
    serverItem(file, `MCP server '${name}' of role '${role.name}'`, server),
  );
  // Configured servers' and VS Code's tools it names: the folder choosing which of them (the user's own included) its role reaches.
  if (role.serverTools)
    servers.push({ kind: 'mcp-server', file, what: `tools role '${role.name}' names`, runs: role.serverTools.join(', ') });
  if (role.a2aUrl === undefined) return servers;
  const remote: FolderItem = {
    kind: 'remote-agent',
    file,
    what: `remote agent of role '${role.name}'`,
    runs: address(role.a2aUrl),
    detail: { url: role.a2aUrl, authEnv: role.a2aAuthEnv ?? null },
  };
  return [...servers, remote];
}

/** A server as an item: its command line (environment first) or its address; headers' and variables' values hashed, never shown beyond names. */
export function serverItem(file: string, what: string, server: McpServerConfig): FolderItem {
  if (server.type === 'http') {
    // Header values may hold a token: hashed, and only their names shown.
    const names = Object.keys(server.headers);
    return {
      kind: 'mcp-server',
      file,
      what,
      runs: names.length === 0 ? address(server.url) : `${address(server.url)} (headers: ${names.join(', ')})`,
      detail: { url: server.url, headers: server.headers },
    };
  }
  const environment = Object.entries(server.env).map(([name, value]) => `${name}=${quoted(value)}`);
  return {
    kind: 'mcp-server',
    file,
    what,
    runs: [...environment, quoted(server.command), ...server.args.map(quoted)].join(' '),
    detail: { command: server.command, args: server.args, env: server.env },
  };
}

/** A word as a shell would need it to mean itself: plain when it is plain, else in JSON quotes. */
function quoted(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word);
}

/** Where an address sends the task: its site and path; a query or credentials in it may be a token, so they are hashed, and only said to be there. */
function address(url: string): string {
  const shown = displayAddress(url);
  try {
    const parsed = new URL(url);
    return parsed.search !== '' || parsed.username !== '' || parsed.password !== ''
      ? `${shown} (with credentials or a query, not shown)`
      : shown;
  } catch {
    return shown;
  }
}
