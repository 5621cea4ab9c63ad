/**
 * An agent on the 1.x SDK that speaks both protocol versions, as the SDK's `compat-v1-server` sample
 * does (`legacyCompat` on every router), with a card that lists its 0.3 interfaces *before* its 1.0 ones
 * — a card upgraded by adding the 1.0 interfaces at the end — so that a client which should pick 1.0
 * whenever it is offered cannot do so by taking the first interface.
 */
import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { AgentJournal } from './agent-journal.js';
import type { InteropAgent } from './interop-agent.js';
import { listenOnLoopback } from './loopback-listener.js';
import { v1AnsweringExecutor } from './v1-answering-executor.js';
import { type AgentOptions, interfacesAt, v1AgentCard } from './v1-sdk-agent.js';

export async function startDualVersionAgent(options: AgentOptions): Promise<InteropAgent> {
  const journal = new AgentJournal();
  const listener = await listenOnLoopback(() => journal.release());
  const interfaces = [
    ...interfacesAt(listener.origin, options.preferred, '0.3'),
    ...interfacesAt(listener.origin, options.preferred, '1.0'),
  ];
  const card = v1AgentCard('interop-dual-version-agent', interfaces);
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), v1AnsweringExecutor(journal));
  const legacyCompat = { enabled: true };
  const app = express();
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler, legacyCompat }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  app.use('/a2a/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  listener.serve(app);
  return { url: `${listener.origin}/`, journal, close: listener.close };
}
