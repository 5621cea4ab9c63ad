/**
 * What a host provides for the `Bash` tool: whether commands may run at all, which run without asking,
 * who is asked about the others, and where the scratch copies live. The extension asks the user on the
 * task's row; the CLI asks nobody and refuses what `--allow-command` does not allow.
 */
import type { Clock } from '../clock.js';
import type { ResourceLimits } from './sandbox/resource-limits.js';
import type { CommandIsolation, SandboxState } from './sandbox/sandbox-state.js';

export type { CommandIsolation };
import type { ScratchCopies } from './scratch-copies.js';

export interface CommandApprovalRequest {
  taskId: string;
  role: string;
  command: string;
  /** The agent's few words on what the command is for. */
  description?: string;
  /** How the command would run; every approval surface says it (and offers "Always" only when `offerAlways`). */
  isolation: CommandIsolation;
}

/**
 * `allow` runs this command once (a host that offers "always" remembers the pattern itself); `deny`
 * refuses it.
 */
export type CommandDecision = 'allow' | 'deny';

export interface CommandApproval {
  /** Resolves with the user's decision; rejects once `signal` aborts (the task was stopped). */
  request(request: CommandApprovalRequest, signal: AbortSignal): Promise<CommandDecision>;
}

export interface CommandHost {
  /** Why no command may run here (Restricted Mode), or undefined when commands may run. */
  refusal(): string | undefined;
  /** Commands that run without asking (command-patterns.ts), read at each call so setting changes apply. */
  allowedPatterns(): readonly string[];
  /** Who is asked about the other commands. Default: nobody; they are refused. */
  approval?: CommandApproval;
  /** How the user allows a refused command, for the refusal text (the CLI's flag, the extension's setting). */
  howToAllow: string;
  copies: ScratchCopies;
  /** The environment commands get (child-environment.ts: secrets already dropped). */
  environment(): Record<string, string>;
  /** Whether commands run in the OS sandbox here (found once, then the same answer). */
  sandbox(): Promise<SandboxState>;
  /** Which commands get the network in the sandbox: all of them, or those matching these patterns. */
  network: { all(): boolean; patterns(): readonly string[] };
  /** The user's real workspace and home: hidden from sandboxed commands. */
  workspaceRoot: string;
  userHome: string;
  /** How the user runs commands without a sandbox, for the refusal where there is none. */
  howToRunUnsandboxed: string;
  /** Limits on each command's CPU time, file size and processes. */
  limits: ResourceLimits;
  /** Default: the system clock. Tests inject one to reach a timeout without waiting. */
  clock?: Clock;
}
