/**
 * Whether a sandboxed MCP server gets the network. Both must say yes: the server's configuration
 * (`network: true` in its `mcpServers` entry: a role file cannot take the network by being there) and the
 * user, with the allowance commands use: the network for everything (`--allow-network`,
 * `agentTeam.commandNetwork: "on"`) or a pattern (`--allow-network-command`, `agentTeam.networkCommands`)
 * that matches the server's command line as it runs: its program and arguments, as the program receives
 * them, joined by single spaces (the words a command's pattern is matched against), never its name.
 */
import { compilePattern } from '../command-patterns.js';

export interface ServerNetworkAllowance {
  /** Every command and server may have the network (`--allow-network`). */
  all(): boolean;
  /** Command lines that may (`--allow-network-command`). */
  patterns(): readonly string[];
}

export interface ServerNetworkDecision {
  network: boolean;
  /** For the transcript and the agent, when the server asked and did not get it. */
  notice?: string;
}

export function serverNetwork(
  server: string,
  program: { command: string; args: readonly string[]; network: boolean },
  allowance: ServerNetworkAllowance,
): ServerNetworkDecision {
  if (!program.network) return { network: false };
  if (allowance.all() || matchesAPattern([program.command, ...program.args], allowance.patterns())) return { network: true };
  return {
    network: false,
    notice: `MCP server '${server}' runs without network: its configuration asks for it (network: true), but the user has not allowed it (--allow-network, or --allow-network-command with a pattern matching its command line; agentTeam.commandNetwork or agentTeam.networkCommands in VS Code). What it does over the network will fail.`,
  };
}

function matchesAPattern(words: readonly string[], patterns: readonly string[]): boolean {
  const cleaned = patterns.map((pattern) => pattern.trim()).filter((pattern) => pattern !== '');
  const line = words.join(' ');
  return cleaned.some((pattern) => pattern === '*' || compilePattern(pattern)(line));
}
