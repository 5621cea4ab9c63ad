/**
 * Whether an agent's command may run: the user's allowed patterns decide where the command runs in a
 * sandbox (or the user turned it off); otherwise the user is asked, or the command is refused with words
 * the agent reads. Apart from the Bash tool so that the tool itself stays about running the command.
 */
import type { CommandHost } from './command-host.js';
import { judgeCommand } from './command-patterns.js';
import { commandShell } from './sandbox/command-launch.js';
import { describeIsolation, type SandboxState } from './sandbox/sandbox-state.js';

/** The command as the agent gave it. */
export interface CommandToAllow {
  command: string;
  /** What it is for, shown to the user when asked. */
  description?: string;
}

/** Who asks, and how the task is shown as waiting while the user decides. */
export interface CommandAsker {
  host: CommandHost;
  taskId: string;
  role: string;
  waitForUser<T>(waitedFor: () => Promise<T>): Promise<T>;
}

/**
 * Resolves when the command may run: a pattern allows it (only where it runs in a sandbox, or the user
 * turned the sandbox off), or the user allowed it now. Throws the refusal the agent reads otherwise.
 */
export async function ensureCommandAllowed(
  input: CommandToAllow,
  options: CommandAsker,
  state: SandboxState,
  network: boolean,
  signal: AbortSignal,
): Promise<void> {
  const { host } = options;
  const verdict = await judgeCommand(input.command, host.allowedPatterns(), { shell: commandShell().variant });
  // Without a sandbox, no pattern decides: a person looks at every command.
  if (verdict.allowed && state.mode !== 'unavailable') return;
  if (!host.approval) {
    if (verdict.allowed && state.mode === 'unavailable') {
      throw new Error(
        `Not run: there is no OS sandbox here (${state.reason}), and without one every command needs the user's approval, which cannot be asked for here. ${host.howToRunUnsandboxed} Don't retry it; say in your answer which command the user should run to check your work.`,
      );
    }
    const why = verdict.reason
      ? ` (${verdict.reason})`
      : verdict.unmatched.length > 0 && verdict.unmatched[0] !== input.command
        ? ` (not allowed: ${verdict.unmatched.map((part) => `\`${part}\``).join(', ')})`
        : '';
    throw new Error(
      `Not run: \`${input.command}\` is not among the commands the user allows${why}. ${host.howToAllow} Don't retry it; say in your answer which command the user should run to check your work.`,
    );
  }
  const approval = host.approval;
  const request = {
    taskId: options.taskId,
    role: options.role,
    command: input.command,
    ...(input.description ? { description: input.description } : {}),
    isolation: describeIsolation(state, network),
  };
  const decision = await options.waitForUser(() => approval.request(request, signal));
  if (decision !== 'allow')
    throw new Error(`Not run: the user denied \`${input.command}\`. Don't run it again; say in your answer what it would have checked.`);
}
