import type { Clock } from '../clock.js';

/** The user's answer about a host: this fetch only, every fetch from it (kept by the host), or none. */
export type DomainDecision = 'once' | 'always' | 'deny';

export interface DomainRequest {
  taskId: string;
  role: string;
  /** The site asked about, as "Always" would store it: the host, with `:port` when not the scheme's default. */
  host: string;
  url: string;
}

/** What WebFetch needs from its host: whom it may fetch from, and who is asked about the others. */
export interface WebHost {
  /** Sites fetched from without asking (`agentTeam.allowedDomains`, `--allow-domain`; domain-rules.ts), read at each fetch. */
  allowedDomains(): readonly string[];
  /** Asks the user about a host no pattern allows; absent: such a fetch is refused. */
  ask?(request: DomainRequest, signal: AbortSignal): Promise<DomainDecision>;
  /** How the user allows a host where nobody is asked, for the refusal text (the CLI: `--allow-domain`). */
  howToAllow: string;
  /** Measures the fetch's deadline. Default `systemClock`. */
  clock?: Clock;
}
