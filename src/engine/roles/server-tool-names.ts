/**
 * The tools a role names that come from outside the engine: an MCP server's tool the workspace or the user
 * configured (`.mcp.json`, `.vscode/mcp.json`, the user's file), `mcp__<server>__<tool>` or every tool of
 * one server, `mcp__<server>__*`, as Claude Code writes them in a subagent's `tools`; and in VS Code a tool
 * another extension registered (`vscode.lm.tools`), `vscode__<tool>` or `vscode__*`. They are kept apart
 * from the engine's own names (tool-names.ts): which exist is known only once their servers are read.
 */

/** `mcp__<server>__<tool>` or `mcp__<server>__*`; the server's name as `mcpServers` allows (mcp-server-config.ts). */
const mcpReference = /^mcp__([A-Za-z0-9_-]{1,32}?)__([A-Za-z0-9_.-]{1,64}|\*)$/;
/** `vscode__<tool>` or `vscode__*`: VS Code's tool names are letters, digits, `_`, `-` and `.`. */
const vscodeReference = /^vscode__([A-Za-z0-9_.-]{1,64}|\*)$/;

export interface ServerToolSplit {
  /** The entries that name such tools, as written (trimmed). */
  serverTools: string[];
  /** Every other entry, for the engine's own tool list. */
  rest: string[];
}

export function splitServerTools(entries: readonly string[]): ServerToolSplit {
  const serverTools: string[] = [];
  const rest: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (mcpReference.test(entry) || vscodeReference.test(entry)) {
      if (!serverTools.includes(entry)) serverTools.push(entry);
    } else rest.push(raw);
  }
  return { serverTools, rest };
}

/** The MCP servers the names reach, each with the tools named (`*`: all of them). */
export function mcpServersNamed(serverTools: readonly string[]): Map<string, Set<string>> {
  const servers = new Map<string, Set<string>>();
  for (const entry of serverTools) {
    const match = mcpReference.exec(entry);
    if (!match) continue;
    const tools = servers.get(match[1]!) ?? new Set<string>();
    tools.add(match[2]!);
    servers.set(match[1]!, tools);
  }
  return servers;
}

/** VS Code's registered tools the names reach (`*`: all of them). */
export function vscodeToolsNamed(serverTools: readonly string[]): Set<string> {
  return new Set(serverTools.map((entry) => vscodeReference.exec(entry)?.[1]).filter((name): name is string => name !== undefined));
}

/** Whether a tool `name` of a server is among those named (`*` or the name itself). */
export function isNamed(named: ReadonlySet<string>, name: string): boolean {
  return named.has('*') || named.has(name);
}
