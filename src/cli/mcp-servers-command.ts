/**
 * `agent-team mcp-servers [--workspace <dir>] [--json]`: every MCP server configured outside role files
 * (`.mcp.json`, `.vscode/mcp.json`, the user's `~/.config/agent-team/mcp.json`), where each was found, what
 * it runs (header values and input answers never shown), which roles name it, and whether it would start:
 * `ready`, or why not — `refused` (its entry cannot work), `shadowed` (a server of the same name comes
 * first), `untrusted` (the folder's, and the folder is not trusted), `no-sandbox` (a stdio server where
 * there is no OS sandbox), `needs-input` (an `${input:…}` only VS Code asks for). Starts nothing.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import {
  type CatalogEntry,
  configuredServerItem,
  detectSandbox,
  mcpServersNamed,
  readMcpCatalog,
  readTeamRoles,
  userMcpConfigPath,
} from '../engine/index.js';
import type { CommandOutput } from './agents-command.js';
import { decideFolderTrust } from './folder-trust.js';
import { shown } from './folder-items-text.js';
import type { McpServersArguments } from './mcp-servers-arguments.js';

export type McpServerStatus = 'ready' | 'refused' | 'shadowed' | 'untrusted' | 'no-sandbox' | 'needs-input';

export interface McpServerListing {
  name: string;
  file: string;
  origin: 'workspace' | 'user';
  type?: 'stdio' | 'http';
  /** The command line or address (as folder trust lists it); absent for a refused entry. */
  runs?: string;
  status: McpServerStatus;
  reason?: string;
  /** Roles whose `tools` name it. */
  roles: string[];
}

export interface McpServersContext extends CommandOutput {
  environment: Readonly<Record<string, string | undefined>>;
  /** Default: the system's. */
  home?: string;
  /** Whether an OS sandbox is here. Default: detectSandbox(). */
  sandbox?: () => Promise<{ available: true } | { available: false; reason: string }>;
}

export async function mcpServersCommand(args: McpServersArguments, context: McpServersContext): Promise<number> {
  const home = context.home ?? homedir();
  const userFile = userMcpConfigPath(home, context.environment);
  const shownUserFile = userFile.startsWith(`${home}${path.sep}`) ? `~/${path.relative(home, userFile)}` : userFile;
  const catalog = await readMcpCatalog({ root: args.workspace, userFiles: [{ path: userFile, shown: shownUserFile }] });
  const { roles } = await readTeamRoles({ root: args.workspace, home });
  // Asked quietly: this command only reports; `agent-team trust` is where the user says yes.
  const folder = await decideFolderTrust({
    root: args.workspace,
    roles,
    unusedKinds: ['check'],
    environment: context.environment,
    stderr: { write: () => {} },
  });
  const sandbox = await (context.sandbox ?? (() => detectSandbox(context.environment)))();
  const namedBy = (server: string) =>
    roles.filter((role) => mcpServersNamed(role.serverTools ?? []).has(server) && !role.mcpServers?.[server]).map((role) => role.name);
  const listings = catalog.entries.map((entry) => listing(entry, namedBy(entry.name), folder.trusted, sandbox));
  if (args.json) {
    context.stdout.write(`${JSON.stringify({ servers: listings, problems: catalog.problems, userFile: shownUserFile }, null, 2)}\n`);
  } else {
    if (listings.length === 0) context.stdout.write(`No MCP servers are configured (.mcp.json, .vscode/mcp.json, ${shownUserFile}).\n`);
    for (const each of listings) {
      context.stdout.write(
        `${shown(each.name)}  ${shown(each.file)}${each.type ? `  ${each.type}` : ''}${each.runs ? `  ${shown(each.runs)}` : ''}\n`,
      );
      context.stdout.write(`  ${each.status}${each.reason ? `: ${shown(each.reason)}` : ''}\n`);
      context.stdout.write(
        `  named by: ${each.roles.length > 0 ? each.roles.join(', ') : "no role (a role's tools name it as mcp__" + shown(each.name) + '__* or mcp__' + shown(each.name) + '__<tool>)'}\n`,
      );
    }
  }
  for (const problem of catalog.problems) context.stderr.write(`agent-team: ${shown(problem)}\n`);
  return 0;
}

function listing(
  entry: CatalogEntry,
  roles: string[],
  trusted: boolean,
  sandbox: { available: true } | { available: false; reason: string },
): McpServerListing {
  const base = { name: entry.name, file: entry.file, origin: entry.origin, roles };
  if (entry.config === undefined) return { ...base, status: 'refused', reason: entry.refused ?? 'its entry cannot be used' };
  const described = { ...base, type: entry.config.type, runs: configuredServerItem(entry).runs };
  if (entry.shadowedBy !== undefined)
    return { ...described, status: 'shadowed', reason: `${entry.shadowedBy} has a server of the same name, which is used instead` };
  if (entry.origin === 'workspace' && !trusted)
    return { ...described, status: 'untrusted', reason: 'this folder is not trusted: run `agent-team trust` in it, or pass --trust' };
  if (entry.config.type === 'stdio' && !sandbox.available)
    return {
      ...described,
      status: 'no-sandbox',
      reason: `no OS sandbox here (${sandbox.reason}): stdio servers start only in one, unless you pass --no-sandbox`,
    };
  const unanswered = entry.inputs.filter((input) => input.default === undefined);
  if (unanswered.length > 0)
    return {
      ...described,
      status: 'needs-input',
      reason: `it needs ${unanswered.map((input) => `'${input.id}' (${input.description})`).join(', ')}, which only VS Code asks for; give the value in the entry to use it here`,
    };
  return {
    ...described,
    status: 'ready',
    reason: `starts${entry.config.type === 'stdio' ? ' in the OS sandbox' : ''} for a task whose role names it`,
  };
}
