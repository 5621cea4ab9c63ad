/**
 * `mcpServers` in a role file's front matter, in Claude Code's shape: a map from a server's name to how to
 * reach it, over stdio (`command`, `args`, `env`) or streamable HTTP (`type: http`, `url`, `headers`).
 * Ours besides: `network: true` on a stdio server asks for the network in the sandbox (mcp/server-network.ts:
 * it gets it only where the user allowed it too). Read strictly: a shape that cannot work is an error naming
 * the server and the field.
 */
export type McpServerConfig =
  | {
      type: 'stdio';
      command: string;
      args: readonly string[];
      env: Readonly<Record<string, string>>;
      /** The server asks for the network in the sandbox (`network: true`). Default false: none. */
      network?: boolean;
    }
  | { type: 'http'; url: string; headers: Readonly<Record<string, string>> };

export type McpServers = Readonly<Record<string, McpServerConfig>>;

/** Short enough for `mcp__<server>__<tool>` to fit a provider's 64-character tool names. */
const serverNamePattern = /^[A-Za-z0-9_-]{1,32}$/;
const maxServers = 10;

export interface McpServersReading {
  servers?: McpServers;
  problems: string[];
}

export function readMcpServers(value: unknown): McpServersReading {
  if (value === undefined || value === null) return { problems: [] };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return {
      problems: [
        "'mcpServers' must be a map from a server name to its settings, e.g. mcpServers: { files: { command: npx, args: [...] } }",
      ],
    };
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > maxServers) return { problems: [`'mcpServers' lists ${entries.length} servers; at most ${maxServers}`] };
  const servers: Record<string, McpServerConfig> = {};
  const problems: string[] = [];
  for (const [name, settings] of entries) {
    if (!serverNamePattern.test(name)) {
      problems.push(`MCP server name '${name}' must be 1 to 32 letters, digits, '-' or '_'`);
      continue;
    }
    const read = readServer(name, settings);
    if (typeof read === 'string') problems.push(read);
    else servers[name] = read;
  }
  return problems.length > 0 ? { problems } : { servers, problems };
}

function readServer(name: string, settings: unknown): McpServerConfig | string {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
    return `MCP server '${name}' must be a map with 'command' (stdio) or 'url' (http)`;
  const fields = settings as Record<string, unknown>;
  const type = fields.type ?? (fields.url !== undefined ? 'http' : 'stdio');
  // `local` is GitHub's name for a stdio server.
  if (type === 'stdio' || type === 'local') {
    if (typeof fields.command !== 'string' || fields.command.trim() === '')
      return `MCP server '${name}': 'command' must be the program to start`;
    const args = fields.args ?? [];
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string'))
      return `MCP server '${name}': 'args' must be a list of strings`;
    const env = readStringMap(fields.env);
    if (env === undefined) return `MCP server '${name}': 'env' must map variable names to strings`;
    if (fields.network !== undefined && typeof fields.network !== 'boolean') return `MCP server '${name}': 'network' must be true or false`;
    return { type: 'stdio', command: fields.command.trim(), args, env, ...(fields.network === true ? { network: true } : {}) };
  }
  if (type === 'http' || type === 'streamable-http') {
    if (typeof fields.url !== 'string' || !isHttpUrl(fields.url)) return `MCP server '${name}': 'url' must be an http(s) address`;
    const headers = readStringMap(fields.headers);
    if (headers === undefined) return `MCP server '${name}': 'headers' must map header names to strings`;
    // agent-team itself talks to an http server: there is no sandbox whose network this could open.
    if (fields.network !== undefined)
      return `MCP server '${name}': 'network' applies to stdio servers only (agent-team reaches an http server itself)`;
    return { type: 'http', url: fields.url, headers };
  }
  return `MCP server '${name}': unknown type '${String(type)}' (use stdio or http)`;
}

function readStringMap(value: unknown): Record<string, string> | undefined {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.every(([, each]) => typeof each === 'string') ? (Object.fromEntries(entries) as Record<string, string>) : undefined;
}

function isHttpUrl(value: string): boolean {
  try {
    const protocol = new URL(value).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
