/**
 * Whether something run in the sandbox gets the network: decided here, for agents' commands and for hooks
 * alike, so the two cannot drift apart.
 *
 * `agentTeam.networkCommands` / `--allow-network-command` patterns are the user's answer to "which of the
 * commands an agent asks for may reach the network", judged on the command as bash parses it. A hook is
 * not such a command: it is a program the repository (or the user's settings) defines, and a repository
 * can name its hook `npm install` as easily as anything else. So a hook gets the network only when every
 * command does (`agentTeam.commandNetwork: "on"`, `--allow-network`), never through a pattern.
 */
import type { CommandHost } from './command-host.js';
import { judgeCommand } from './command-patterns.js';
import { commandShell } from './sandbox/command-launch.js';
import type { SandboxState } from './sandbox/sandbox-state.js';

/** What is about to run: a command an agent asked for (its line), or a hook of a settings file. */
export type NetworkSubject = { kind: 'agent-command'; command: string } | { kind: 'hook' };

/**
 * True when `subject` may reach the network. Outside the sandbox nothing can take the network away, so the
 * answer is true there (it is what the approval tells the user).
 */
export async function networkAllowed(network: CommandHost['network'], state: SandboxState, subject: NetworkSubject): Promise<boolean> {
  if (state.mode !== 'sandbox' || network.all()) return true;
  if (subject.kind === 'hook') return false;
  const patterns = network.patterns();
  return patterns.length > 0 && (await judgeCommand(subject.command, patterns, { shell: commandShell().variant })).allowed;
}
