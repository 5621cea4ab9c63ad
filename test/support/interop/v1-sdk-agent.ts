/**
 * An agent built the way the 1.x SDK documents it — `DefaultRequestHandler` behind the SDK's express
 * routers `jsonRpcHandler`, `restHandler` and `agentCardHandler` — offering protocol 1.0 only (no
 * compatibility layer): a 0.3 client gets its 1.0 card and 1.0 answers, nothing it can use. Its card
 * lists both bindings, the preferred one first.
 */
import { type AgentCard, type AgentInterface, AGENT_CARD_PATH } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { AgentJournal } from './agent-journal.js';
import type { InteropAgent } from './interop-agent.js';
import { listenOnLoopback } from './loopback-listener.js';
import { v1AnsweringExecutor } from './v1-answering-executor.js';

export type ProtocolBinding = 'JSONRPC' | 'HTTP+JSON';

export interface AgentOptions {
  /** The binding the card lists first (the one a client should pick). */
  preferred: ProtocolBinding;
}

export async function startV1SdkAgent(options: AgentOptions): Promise<InteropAgent> {
  const journal = new AgentJournal();
  const listener = await listenOnLoopback(() => journal.release());
  const card = v1AgentCard('interop-v1-agent', interfacesAt(listener.origin, options.preferred, '1.0'));
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), v1AnsweringExecutor(journal));
  const app = express();
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/a2a/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  listener.serve(app);
  return { url: `${listener.origin}/`, journal, close: listener.close };
}

/** JSON-RPC at `/a2a/jsonrpc`, HTTP+JSON at `/a2a/rest`, both at `protocolVersion`, `preferred` first. */
export function interfacesAt(origin: string, preferred: ProtocolBinding, protocolVersion: string): AgentInterface[] {
  const interfaces: AgentInterface[] = [
    { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion },
    { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion },
  ];
  return interfaces.sort((first, second) => Number(second.protocolBinding === preferred) - Number(first.protocolBinding === preferred));
}

export function v1AgentCard(name: string, supportedInterfaces: AgentInterface[]): AgentCard {
  return {
    name,
    description: 'An agent nobody here wrote, for the interoperability tests',
    supportedInterfaces,
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'answer',
        name: 'answer',
        description: 'Answers questions',
        tags: [],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}
