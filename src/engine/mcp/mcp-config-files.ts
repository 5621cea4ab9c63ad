/**
 * The MCP servers users already configured for other tools, read as agent-team reads any file that gives
 * it orders: through the confined reader (confined-file-reader.ts), so `.mcp.json -> ~/.ssh/…` or a link to
 * an ignored file is refused, never followed.
 * - `.mcp.json` at the workspace root (Claude Code's project servers): `{"mcpServers": {name: server}}`;
 * - `.vscode/mcp.json` (VS Code's workspace servers): `{"servers": {name: server}, "inputs": [...]}`, JSON
 *   with comments, whose `${input:id}` values are asked for when the server first starts (mcp-inputs.ts);
 * - the user's own file, `$XDG_CONFIG_HOME/agent-team/mcp.json` (default `~/.config/agent-team/mcp.json`),
 *   in `.mcp.json`'s shape. Ours, not Claude Code's `~/.claude.json`: that file is Claude Code's state,
 *   rewritten as it runs, and every server a user added there for Claude Code would otherwise start here
 *   without the user having chosen it.
 * Each server is read by the rules of a role file's `mcpServers` (mcp-server-config.ts) one at a time, so one
 * bad entry refuses only itself, with why.
 */
import path from 'node:path';
import { errorMessage } from '../errors.js';
import { ConfinedFileReader } from '../workspace/confined-file-reader.js';
import { type McpServerConfig, readMcpServers } from '../roles/mcp-server-config.js';
import { parseJsonc } from './jsonc-text.js';
import { type McpInput, readInputs, substituteVariables } from './mcp-inputs.js';

/** Where a server was found; `workspace` ones are the folder's (trust, first-use approval). */
export type McpConfigOrigin = 'workspace' | 'user';

export interface ConfiguredServer {
  name: string;
  /** The file, as shown to the user (`.mcp.json`, `.vscode/mcp.json`, `~/.config/agent-team/mcp.json`). */
  file: string;
  origin: McpConfigOrigin;
  /** How to start it, `${input:id}` placeholders still in it; absent when refused. */
  config?: McpServerConfig;
  /** The inputs its values name, asked for when it first starts. */
  inputs: McpInput[];
  /** Why it cannot start (a bad entry), for `agent-team mcp-servers` and the agent. */
  refused?: string;
}

export interface McpConfigFile {
  file: string;
  origin: McpConfigOrigin;
  servers: ConfiguredServer[];
  /** The file could not be read or parsed: nothing of it is used. */
  problem?: string;
}

/** Large enough for any hand-written configuration; a larger file is refused rather than cut. */
const maxConfigBytes = 256 * 1024;

/** The user's file: `$XDG_CONFIG_HOME/agent-team/mcp.json`, else `<home>/.config/agent-team/mcp.json`. */
export function userMcpConfigPath(home: string, environment: Readonly<Record<string, string | undefined>>): string {
  const xdg = environment.XDG_CONFIG_HOME;
  return path.join(xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.config'), 'agent-team', 'mcp.json');
}

/** The workspace's two files, in precedence order (`.mcp.json` first, as Claude Code's project scope). */
export async function readWorkspaceMcpFiles(root: string): Promise<McpConfigFile[]> {
  const reader = new ConfinedFileReader(root);
  return [
    await readOne(reader, '.mcp.json', '.mcp.json', 'workspace', 'mcpServers', root),
    await readOne(reader, '.vscode/mcp.json', '.vscode/mcp.json', 'workspace', 'servers', root),
  ].filter((file): file is McpConfigFile => file !== undefined);
}

/**
 * A user's file, if there is one, in either shape: ours and Claude Code's (`mcpServers`), or VS Code's user
 * `mcp.json` (`servers`, `inputs`, comments), told apart by its key. `shown`: how it is named to the user.
 */
export async function readUserMcpFile(file: string, root: string, shown = file): Promise<McpConfigFile | undefined> {
  const reader = new ConfinedFileReader(path.dirname(file), { folderName: 'its folder', refuseLinksToIgnored: false });
  return readOne(reader, path.basename(file), shown, 'user', 'either', root);
}

async function readOne(
  reader: ConfinedFileReader,
  relative: string,
  shown: string,
  origin: McpConfigOrigin,
  shape: 'mcpServers' | 'servers' | 'either',
  root: string,
): Promise<McpConfigFile | undefined> {
  const outcome = await reader.read(relative, maxConfigBytes);
  if (outcome === undefined) return undefined;
  if ('refused' in outcome) return { file: shown, origin, servers: [], problem: `${shown} was not read: ${outcome.refused}` };
  if (outcome.read.cut)
    return { file: shown, origin, servers: [], problem: `${shown} was not read: it is larger than ${maxConfigBytes / 1024} KiB` };
  let parsed: unknown;
  try {
    parsed = shape === 'mcpServers' ? JSON.parse(outcome.read.text) : parseJsonc(outcome.read.text);
  } catch (error) {
    return { file: shown, origin, servers: [], problem: `${shown} is not valid JSON: ${errorMessage(error)}` };
  }
  const key =
    shape === 'either'
      ? isMap(parsed) && parsed.mcpServers === undefined && parsed.servers !== undefined
        ? 'servers'
        : 'mcpServers'
      : shape;
  if (!isMap(parsed)) return { file: shown, origin, servers: [], problem: `${shown} must hold a JSON object with '${key}'` };
  const entries = parsed[key] ?? {};
  if (!isMap(entries))
    return { file: shown, origin, servers: [], problem: `${shown}: '${key}' must map each server's name to its settings` };
  const inputs = readInputs(parsed.inputs);
  if (typeof inputs === 'string') return { file: shown, origin, servers: [], problem: `${shown}: ${inputs}` };
  const servers = Object.entries(entries).map(([name, settings]) => readServer(name, settings, { file: shown, origin, inputs, root }));
  return { file: shown, origin, servers };
}

function readServer(
  name: string,
  settings: unknown,
  place: { file: string; origin: McpConfigOrigin; inputs: readonly McpInput[]; root: string },
): ConfiguredServer {
  const base = { name, file: place.file, origin: place.origin, inputs: [] };
  if (!isMap(settings)) return { ...base, refused: `MCP server '${name}' must be an object with 'command' (stdio) or 'url' (http)` };
  if (settings.type === 'sse')
    return {
      ...base,
      refused: `MCP server '${name}' uses the SSE transport, which agent-team does not speak (MCP replaced it with streamable HTTP: "type": "http")`,
    };
  if (settings.envFile !== undefined)
    return {
      ...base,
      refused: `MCP server '${name}' reads its environment from a file ('envFile'), which agent-team does not do: a file of variables is where secrets live; give the values in 'env'`,
    };
  const substituted = substituteVariables(settings, { workspaceFolder: place.root, inputs: place.inputs });
  if (typeof substituted === 'string') return { ...base, refused: `MCP server '${name}': ${substituted}` };
  // The server always runs in the workspace (its copy, in the sandbox): another working folder is refused, not ignored.
  const cwd = substituted.value.cwd;
  if (cwd !== undefined && cwd !== place.root)
    return {
      ...base,
      refused: `MCP server '${name}': 'cwd' other than the workspace folder is not supported (it runs in the workspace, or its copy in the sandbox)`,
    };
  const read = readMcpServers({ [name]: substituted.value });
  const config = read.servers?.[name];
  if (config === undefined) return { ...base, refused: read.problems.join('; ') };
  return { ...base, config, inputs: substituted.inputs };
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
