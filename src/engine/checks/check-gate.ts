/**
 * Whether a check may run, asked in the order that refuses soonest: commands allowed at all here
 * (Restricted Mode), the folder trusted (checks are repository code), an OS sandbox (without one no
 * check runs, whatever is allowed, unless the user turned the sandbox off), and the user's approval:
 * the same as a command's (an allowed pattern, `--allow-command` in the CLI, "Always" in VS Code), or
 * the question the host asks. Nobody to ask and no pattern: refused, with how to allow it.
 */
import type { CommandHost } from '../commands/command-host.js';
import { networkAllowed } from '../commands/command-network.js';
import { judgeCommand } from '../commands/command-patterns.js';
import { commandShell } from '../commands/sandbox/command-launch.js';
import { describeIsolation, type SandboxState } from '../commands/sandbox/sandbox-state.js';
import type { CheckDefinition } from './types.js';

export interface CheckGateOptions {
  host: CommandHost;
  /** Whether the user trusted the folder's item for this check (folder-configuration.ts). */
  trusts(check: CheckDefinition): boolean;
  /** How the user trusts the folder, for the refusal ("run `agent-team trust` in it, or pass --trust"). */
  howToTrust: string;
}

/** Undefined when the check may run; else why not (shown as the check's result, status `refused`). */
export async function checkRefusal(
  check: CheckDefinition,
  runId: string,
  state: SandboxState,
  options: CheckGateOptions,
  signal: AbortSignal,
): Promise<string | undefined> {
  const { host } = options;
  const refusal = host.refusal();
  if (refusal !== undefined) return `not run: ${refusal}`;
  if (!options.trusts(check))
    return `not run: this folder is not trusted, and checks are its own code (to allow it, ${options.howToTrust})`;
  if (state.mode === 'unavailable')
    return `not run: there is no OS sandbox here (${state.reason}), and checks never run outside one. ${host.howToRunUnsandboxed}`;
  const verdict = await judgeCommand(check.command, host.allowedPatterns(), { shell: commandShell().variant });
  if (verdict.allowed) return undefined;
  if (!host.approval) return `not run: \`${check.command}\` is not among the commands the user allows. ${host.howToAllow}`;
  const network = await networkAllowed(host.network, state, { kind: 'agent-command', command: check.command });
  const decision = await host.approval.request(
    {
      taskId: runId,
      role: 'checks',
      command: check.command,
      description: `the check "${check.name}" from ${check.source}, on the proposals`,
      isolation: describeIsolation(state, network),
    },
    signal,
  );
  return decision === 'allow' ? undefined : `not run: the user denied \`${check.command}\``;
}
