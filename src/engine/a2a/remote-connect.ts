/**
 * Reaching a remote A2A agent: its card read, the interface chosen among those it offers, and the SDK's
 * client made for it, every request carrying the bearer token and the exchange's current signal.
 */
// Types only: the SDK itself is loaded with import() when a remote task starts (its own vendor bundle).
import type * as ClientSdk from './a2a-client-sdk.js';
import { linkSignals } from '../abort.js';
import type { TaskWorkContext } from '../tasks/work.js';
import { RemoteAgentError } from './remote-agent-error.js';
import { type ChosenInterface, chooseInterface, describeChoice, describeOffer, offeredInterfaces, readAgentCard } from './remote-card.js';
import { RemoteProgress } from './remote-progress.js';

export type RemoteClient = Awaited<ReturnType<InstanceType<typeof ClientSdk.ClientFactory>['createFromAgentCard']>>;

/** What the exchange learned from the card: for every error after it, what was offered and what we tried. */
export interface Negotiated {
  offered: string;
  chosen?: ChosenInterface;
}

export interface ConnectRequest {
  role: string;
  url: string;
  /** How the agent is named in messages (displayAddress). */
  address: string;
  secrets: readonly string[];
  context: TaskWorkContext;
  fetchImpl: typeof fetch;
  /** Called once the card is read, before the client is made: errors after it name the offer. */
  onNegotiated: (negotiated: Negotiated, progress: RemoteProgress) => void;
}

export async function connectRemote(request: ConnectRequest): Promise<RemoteClient> {
  const { context, fetchImpl } = request;
  const sdk = await import('./a2a-client-sdk.js');
  // The card path is relative: without the trailing slash, the agent's last path segment would be lost.
  const base = request.url.endsWith('/') ? request.url : `${request.url}/`;
  const card = await readAgentCard(sdk, base, fetchImpl);
  context.setModel(`a2a/${card.name}`);
  const offered = describeOffer(offeredInterfaces(card));
  const chosen = chooseInterface(card, base);
  if (typeof chosen === 'string') {
    throw new RemoteAgentError(
      'protocol',
      `The remote agent for '${request.role}' at ${request.address} cannot be used: ${chosen}. Its card offers: ${offered}.`,
      request.secrets,
    );
  }
  request.onNegotiated(
    { offered, chosen },
    new RemoteProgress(chosen.generation === '0.3' && chosen.binding.toUpperCase() === 'HTTP+JSON'),
  );
  context.appendTranscript({
    type: 'notice',
    text: `Remote agent: ${card.name}, A2A ${chosen.generation} over ${describeChoice(chosen)}`,
  });
  const legacyCompat = { enabled: true };
  const factory = new sdk.ClientFactory({
    transports: [new sdk.JsonRpcTransportFactory({ fetchImpl, legacyCompat }), new sdk.RestTransportFactory({ fetchImpl, legacyCompat })],
    // The card is read already; a second reading would take the SDK's guesses about its JSON again.
    cardResolver: {
      resolve: () => Promise.reject(new Error('the card is read already')),
      normalizeAgentCard: (read) => read as typeof card,
    },
  });
  return factory.createFromAgentCard(chosen.card);
}

/**
 * `fetch` with the bearer token and the current request signal on every request the SDK makes (the
 * agent card's has none of its own). The abort reason handed to `fetch` is a plain error: a task's stop
 * reason is a frozen object, on which undici fails to record a stack.
 */
export function authorizedFetch(token: string | undefined, requestSignal: () => AbortSignal): typeof fetch {
  return (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const controller = new AbortController();
    for (const source of init.signal ? [requestSignal(), init.signal] : [requestSignal()]) {
      linkSignals(source, controller, () => new DOMException('The request was aborted.', 'AbortError'));
    }
    return fetch(input, { ...init, headers, signal: controller.signal });
  };
}
