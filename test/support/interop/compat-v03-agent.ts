/**
 * An agent built with the 1.x SDK's 0.3 compatibility server that offers protocol 0.3 only: every
 * interface of its card says `protocolVersion: '0.3'`, and its routers run with `legacyCompat`, so a
 * client without an `A2A-Version` header reads the legacy card (`url`, `preferredTransport`,
 * `additionalInterfaces`), 0.3 methods (`message/stream`, `/v1/message:stream`, …) are answered and 1.0
 * ones are refused by the SDK's version check.
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

export async function startCompatV03Agent(options: AgentOptions): Promise<InteropAgent> {
  const journal = new AgentJournal();
  const listener = await listenOnLoopback(() => journal.release());
  const card = v1AgentCard('interop-compat-v03-agent', interfacesAt(listener.origin, options.preferred, '0.3'));
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), v1AnsweringExecutor(journal));
  const legacyCompat = { enabled: true };
  const app = express();
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler, legacyCompat }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  app.use('/a2a/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  listener.serve(app);
  return { url: `${listener.origin}/`, journal, close: listener.close };
}
