/**
 * The hop count that stops A2A loops. Every message our client sends carries, in its metadata under
 * `agentTeam/hops`, how many agent-team servers the request has passed through so far: 0 from a run the
 * user started, and one more for each agent-team server that took the request and handed it on (the
 * server counts itself when it starts the run, and the run's remote roles send that count). A server
 * refuses a request that has already passed through `maxA2aHops` of them: a remote role probably points
 * back at a server in its own chain (at itself, or two servers at each other).
 *
 * A guard against mistakes, not against a client: a client that is not agent-team sends no count (0).
 */
import { maxA2aHops } from '../limits.js';

/** The metadata key of a message that carries the count (A2A metadata keys are namespaced by convention). */
export const hopsMetadataKey = 'agentTeam/hops';

/** The count a message carries: a whole number of 0 or more, or 0 when it carries none we can read. */
export function hopsOf(metadata: Readonly<Record<string, unknown>> | undefined): number {
  const value = metadata?.[hopsMetadataKey];
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

/** Why a request that arrived with `hops` is refused, or undefined when it may run. */
export function hopRefusal(hops: number): string | undefined {
  if (hops < maxA2aHops) return undefined;
  return `refused: this request has passed through ${hops} agent-team servers; a remote role probably points back at this server (its a2a_url), directly or through another server`;
}
