/**
 * One agent card, in the shape each protocol version's clients read. A 1.0 client asks with
 * `A2A-Version: 1.0` and gets the card as protocol 1.0 writes it (`supportedInterfaces`); a 0.3 client sends
 * no version (the spec's default is 0.3) and gets the 0.3 shape (`url`, `preferredTransport`) with the 1.0
 * interfaces embedded too, the "hybrid" card the SDK's own server sends, so a newer client that happens to
 * ask without the header still finds 1.0. The 0.3 card at the older path `.well-known/agent.json` is the same.
 */
import { AgentCard } from '@a2a-js/sdk';
import { LegacyRestTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { isLegacyVersion } from '../../a2a/protocol-versions.js';

/** The card's JSON for a request that asked for `requestedVersion` (the `A2A-Version` header; absent: 0.3). */
export async function agentCardFor(card: AgentCard, requestedVersion: string | undefined): Promise<unknown> {
  const v1 = AgentCard.toJSON(card) as Record<string, unknown>;
  if (!isLegacyVersion(requestedVersion ?? '')) return v1;
  // The SDK's translation of a 1.0 card to 0.3 is reachable only through its 0.3 REST handler, which hands
  // the card it is given to that translation (the same one its Express card router uses).
  const translator = new LegacyRestTransportHandler({ getAuthenticatedExtendedAgentCard: () => Promise.resolve(card) } as never);
  try {
    const legacy = (await translator.getAuthenticatedExtendedAgentCard({} as never)) as unknown as Record<string, unknown>;
    return { ...legacy, supportedInterfaces: v1.supportedInterfaces };
  } catch {
    // A card that offers no 0.3 interface has no 0.3 shape: the 1.0 card says what it does offer.
    return v1;
  }
}
