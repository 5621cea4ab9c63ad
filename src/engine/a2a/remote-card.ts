/**
 * Reading a remote agent's card and choosing how to talk to it. The card lists interfaces, each a binding
 * (JSON-RPC, HTTP+JSON/REST, gRPC) at a protocol version; a 0.3 card (`url`, `preferredTransport`,
 * `additionalInterfaces`) is read through the SDK's compatibility layer into the same list, stamped 0.3.
 * We take the first interface at 1.0 whose binding we speak, else the first at 0.3, in the card's order
 * (its order is its preference). Anything we cannot use is an error naming what the card offered.
 *
 * The chosen address keeps only its path: requests go to `a2a_url`'s own scheme, host and port. A card
 * behind a port-forward or an ingress names an address we cannot reach (Google ADK's `toA2a` writes
 * `localhost:8000`, kagent its in-cluster service), and a card must not be able to send the token
 * anywhere else.
 */
import type { AgentCard, AgentInterface } from '@a2a-js/sdk';
import type * as ClientSdk from './a2a-client-sdk.js';
import { errorMessage } from '../errors.js';
import { type ProtocolGeneration, protocolGeneration } from './protocol-versions.js';

/** Where agents of A2A 0.2 (and kagent's controllers before 0.9.7) serve their card. */
const legacyCardPath = '.well-known/agent.json';

/** The bindings we speak, by the names cards use, and how we name them to users. */
const bindings: Readonly<Record<string, string>> = { JSONRPC: 'JSON-RPC', 'HTTP+JSON': 'HTTP+JSON' };

export interface OfferedInterface {
  binding: string;
  version: string;
  url: string;
}

export interface ChosenInterface extends OfferedInterface {
  generation: ProtocolGeneration;
  /** The card with only the chosen interface, at its address on `a2a_url`'s host: what the client is built from. */
  card: AgentCard;
}

/** The card at `base` (ending in `/`): the current path first, then the one before it, which older agents serve. */
export async function readAgentCard(sdk: typeof ClientSdk, base: string, fetchImpl: typeof fetch): Promise<AgentCard> {
  const resolver = new sdk.DefaultAgentCardResolver({ fetchImpl, legacyCompat: { enabled: true } });
  return resolver.resolve(base).catch((error: unknown) => {
    if (/\b404\b/.test(errorMessage(error))) return resolver.resolve(base, legacyCardPath);
    throw error;
  });
}

/** What the card offers, as the user may read it. */
export function offeredInterfaces(card: AgentCard): OfferedInterface[] {
  return (card.supportedInterfaces ?? []).map((offered: AgentInterface) => ({
    binding: offered.protocolBinding ?? '',
    version: offered.protocolVersion || '(none)',
    url: offered.url ?? '',
  }));
}

export function describeOffer(offered: readonly OfferedInterface[]): string {
  if (offered.length === 0) return 'no interface at all';
  return offered
    .map(
      (entry) =>
        `${bindings[entry.binding.toUpperCase()] ?? (entry.binding || '(no binding)')} ${entry.version} at ${entry.url || '(no address)'}`,
    )
    .join('; ');
}

export function describeChoice(chosen: OfferedInterface): string {
  return `${bindings[chosen.binding.toUpperCase()] ?? chosen.binding} ${chosen.version} at ${chosen.url}`;
}

/**
 * The interface to use, or a sentence saying why there is none (for the caller's error). `base` is
 * `a2a_url`, whose origin every request goes to.
 */
export function chooseInterface(card: AgentCard, base: string): ChosenInterface | string {
  const offered = card.supportedInterfaces ?? [];
  const usable = offered
    .map((entry) => ({ entry, generation: protocolGeneration(entry.protocolVersion) }))
    .filter(
      (candidate): candidate is { entry: AgentInterface; generation: ProtocolGeneration } =>
        candidate.generation !== undefined && bindings[(candidate.entry.protocolBinding ?? '').toUpperCase()] !== undefined,
    );
  const pick = usable.find((candidate) => candidate.generation === '1.0') ?? usable.find((candidate) => candidate.generation === '0.3');
  if (!pick) {
    const spoken = offered.some((entry) => bindings[(entry.protocolBinding ?? '').toUpperCase()] !== undefined);
    return spoken
      ? 'it offers no protocol version we speak (we speak A2A 1.0 and 0.3)'
      : 'it offers no interface we can use (we use JSON-RPC and HTTP+JSON/REST)';
  }
  const url = onOrigin(pick.entry.url, base);
  if (url === undefined) return `its interface address '${pick.entry.url}' is not a valid address`;
  const chosen: AgentInterface = { ...pick.entry, url, protocolVersion: pick.entry.protocolVersion || '0.3' };
  return {
    binding: chosen.protocolBinding,
    version: chosen.protocolVersion,
    url,
    generation: pick.generation,
    card: { ...card, supportedInterfaces: [chosen] },
  };
}

/** `address`'s path (and query) on `base`'s scheme, host and port. */
function onOrigin(address: string | undefined, base: string): string | undefined {
  try {
    const target = new URL(address || base, base);
    const origin = new URL(base);
    return new URL(`${target.pathname}${target.search}`, origin.origin).toString();
  } catch {
    return undefined;
  }
}
