/**
 * A role's MCP servers, for one of its tasks: all started together when the task starts (the model must
 * see their tools in its first request), closed when it ends, however it ends. A server that fails to
 * start costs only its own tools: the task goes on, and its transcript and its agent are told why.
 * Where the host does not allow MCP servers (VS Code's Restricted Mode), none starts.
 */
import type { Tool } from '../agent/tool.js';
import { errorMessage } from '../errors.js';
import { connectMcpServer, type McpConnectOptions, type McpConnection, type ServerTask } from './mcp-connection.js';
import type { McpServers } from '../roles/mcp-server-config.js';

export interface McpHost extends McpConnectOptions {
  /** False where the workspace is not trusted: a role file must not choose programs to run there. */
  allowed: () => boolean;
}

export interface RoleMcpTools {
  tools: Tool[];
  /** One line per server that did not start, or that was not allowed to. */
  problems: string[];
  /** One line per started server that runs with less than it asked for (no network). */
  notices: string[];
  close(): Promise<void>;
}

/** `task`: whose tree's scratch copy sandboxed servers see, and the proposals it sees; its signal bounds the start. */
export async function startRoleMcpServers(servers: McpServers, host: McpHost | undefined, task: ServerTask): Promise<RoleMcpTools> {
  const names = Object.keys(servers);
  if (names.length === 0) return { tools: [], problems: [], notices: [], close: async () => {} };
  if (!host || !host.allowed()) {
    const why = host
      ? 'this folder is not trusted (VS Code: Manage Workspace Trust; the CLI: agent-team trust, or --trust)'
      : 'this host does not run MCP servers';
    return {
      tools: [],
      problems: names.map((name) => `MCP server '${name}' was not started: ${why}.`),
      notices: [],
      close: async () => {},
    };
  }
  const settled = await Promise.allSettled(names.map((name) => connectMcpServer(name, servers[name]!, host, task)));
  const connections: McpConnection[] = [];
  const problems: string[] = [];
  for (const outcome of settled) {
    if (outcome.status === 'fulfilled') connections.push(outcome.value);
    else problems.push(errorMessage(outcome.reason));
  }
  const seen = new Set<string>();
  const tools = connections.flatMap((connection) => connection.tools).filter((tool) => !seen.has(tool.name) && seen.add(tool.name));
  return {
    tools,
    problems,
    notices: connections.flatMap((connection) => connection.notices),
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}
