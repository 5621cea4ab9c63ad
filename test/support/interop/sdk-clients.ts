/**
 * The clients of both SDK versions, configured as their documentation shows, and a user message in each
 * version's shape: the 1.x `ClientFactory` (optionally with its 0.3 compatibility layer on the card
 * resolver and both transports) and the old SDK's (`a2a-sdk-v03`, protocol 0.3 only).
 */
import { randomUUID } from 'node:crypto';
import { type Message, Role, type StreamResponse } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import type { Message as V03Message } from 'a2a-sdk-v03';
import { ClientFactory as V03ClientFactory } from 'a2a-sdk-v03/client';

export type V1Client = Awaited<ReturnType<ClientFactory['createFromUrl']>>;
export type V03Client = Awaited<ReturnType<V03ClientFactory['createFromUrl']>>;

/** The 1.x client of `url`'s card; `legacyCompat`: it also talks to agents that offer only 0.3. */
export function v1Client(url: string, options: { legacyCompat?: boolean; preferredTransports?: string[] } = {}): Promise<V1Client> {
  const legacyCompat = { enabled: options.legacyCompat ?? false };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      cardResolver: new DefaultAgentCardResolver({ legacyCompat }),
      transports: [new JsonRpcTransportFactory({ legacyCompat }), new RestTransportFactory({ legacyCompat })],
      ...(options.preferredTransports ? { preferredTransports: options.preferredTransports } : {}),
    }),
  );
  return factory.createFromUrl(url);
}

/** The old SDK's client of `url`'s card (JSON-RPC, or REST where the card prefers it). */
export function v03Client(url: string): Promise<V03Client> {
  return new V03ClientFactory().createFromUrl(url);
}

export function v1UserMessage(text: string, metadata?: Record<string, unknown>, taskId = ''): Message {
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId,
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function v03UserMessage(text: string, metadata?: Record<string, unknown>): V03Message {
  return { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...(metadata ? { metadata } : {}) };
}

/** The text of a 1.x stream event's parts (a status message's, an artifact's, a message's). */
export function v1TextOf(event: StreamResponse): string {
  const payload = event.payload;
  const parts =
    payload?.$case === 'statusUpdate'
      ? payload.value.status?.message?.parts
      : payload?.$case === 'artifactUpdate'
        ? payload.value.artifact?.parts
        : payload?.$case === 'message'
          ? payload.value.parts
          : payload?.$case === 'task'
            ? payload.value.status?.message?.parts
            : undefined;
  return (parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}
