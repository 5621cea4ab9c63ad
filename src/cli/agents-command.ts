import { homedir } from 'node:os';
import { displayAddress, formatRoleDiagnostic, readTeamRoles, resolveRoleTools, type RoleDefinition, roleNotes } from '../engine/index.js';
import type { AgentsArguments } from './arguments.js';
import { terminalSafe } from './terminal-text.js';

export interface CommandOutput {
  stdout: { write(text: string): void };
  stderr: { write(text: string): void };
}

/** `agent-team agents`: the roles of a workspace, where each is defined, and what is wrong with any file. */
export async function agentsCommand(args: AgentsArguments, output: CommandOutput): Promise<number> {
  const { roles, diagnostics } = await readTeamRoles({ root: args.workspace, home: homedir() });
  const nameWidth = Math.max(...roles.map((role) => role.name.length), 4);
  for (const role of roles) {
    // Everything here comes from role files, which the repository's authors wrote.
    const line = (text: string) => output.stdout.write(`${terminalSafe(text)}\n`);
    line(`${role.name.padEnd(nameWidth)}  ${sourceOf(role)}`);
    line(`${' '.repeat(nameWidth)}  ${firstLine(role.description)}`);
    line(`${' '.repeat(nameWidth)}  tools: ${resolveRoleTools(role).join(', ') || 'none'}${role.model ? ` · model: ${role.model}` : ''}`);
    if (role.mcpServers) line(`${' '.repeat(nameWidth)}  MCP servers: ${Object.keys(role.mcpServers).join(', ')}`);
    // Configured servers' and VS Code's tools it names (agent-team mcp-servers lists the servers).
    if (role.serverTools) line(`${' '.repeat(nameWidth)}  also names: ${role.serverTools.join(', ')}`);
    for (const note of roleNotes(role)) line(`${' '.repeat(nameWidth)}  ${note}`);
    if (role.a2aUrl) line(`${' '.repeat(nameWidth)}  runs on the A2A agent at ${displayAddress(role.a2aUrl)}`);
  }
  for (const diagnostic of diagnostics) output.stderr.write(`${terminalSafe(formatRoleDiagnostic(diagnostic))}\n`);
  return 0;
}

function sourceOf(role: RoleDefinition): string {
  const where = role.source.kind === 'built-in' ? 'built-in' : role.source.path;
  const hides = role.overridden?.map((source) => (source.kind === 'built-in' ? 'built-in' : source.path)) ?? [];
  return hides.length > 0 ? `${where} (overrides ${hides.join(', ')})` : where;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
