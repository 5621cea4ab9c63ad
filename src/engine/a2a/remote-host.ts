/** What a remote role (`a2a_url`) is given: the host's permissions, clock and limits, and the role's own spec. */
import type { Clock } from '../clock.js';
import type { ModelMessage } from '../model/types.js';

/** What the host lets remote roles do, and the clock and limits they run on. */
export interface A2aHost {
  /** False where the workspace is not trusted: a role file must not send work, or a token, away from there. */
  allowed: () => boolean;
  /** Where `a2a_auth_env` variables are read. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Default `systemClock`. */
  clock?: Clock;
  /** How long reaching the agent (its card, then its first answer) may take. Default: `defaults.remoteConnectTimeoutMs` (30,000 ms). */
  connectTimeoutMs?: number;
  /** How long the remote may be silent once it has answered. Default: `defaults.remoteIdleTimeoutMs` (600,000 ms: agents think long). */
  idleTimeoutMs?: number;
  /**
   * How long a cancellation after Stop may take before it is given up. Default 1,500 ms: a stopped task's
   * work has 2 s (the task manager's grace) to say how its remote task ended.
   */
  cancelTimeoutMs?: number;
  /** Values to keep out of messages beyond the role's own token (the model providers' keys). Default none. */
  secrets?: readonly string[];
}

export interface RemoteRoleSpec {
  role: string;
  url: string;
  authEnv?: string;
  /** The task; for a conversation (a follow-up), its last user message is what is sent. */
  prompt: string | ModelMessage[];
  /**
   * How many agent-team servers the request this run serves has passed through (0: the user started the
   * run); sent on as `agentTeam/hops` so a loop of servers is refused (hop-count.ts). Default 0.
   */
  hops?: number;
}
