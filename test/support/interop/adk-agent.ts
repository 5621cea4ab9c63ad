/**
 * The ADK agent exposed as ADK exposes agents: `toA2a` (protocol 0.3, JSON-RPC at `/jsonrpc`, REST at
 * `/rest`, ADK's `A2AAgentExecutor`), listening on 127.0.0.1. Its card names `localhost` and, by
 * default, a port where nothing listens — what a card behind a port-forward or an ingress says — so a
 * client must send its requests to the card's path on the host and port it was given.
 *
 * ADK's executor cannot cancel (`cancelTask` throws "Task cancellation is not supported yet."), so the
 * cancellations the journal records are the cancel requests seen on the wire, before ADK refuses them.
 */
import { LogLevel, setLogLevel } from '@google/adk';
import { toA2a } from '@google/adk/a2a';
import express, { type Request } from 'express';
import { AgentJournal } from './agent-journal.js';
import { AdkScriptedAgent } from './adk-scripted-agent.js';
import type { InteropAgent } from './interop-agent.js';
import { listenOnLoopback, unusedLoopbackPort } from './loopback-listener.js';

export interface AdkAgentOptions {
  /** The port the card names (with `localhost`): `'listening'`, the agent's own. Default: a port where nothing listens. */
  cardPort?: number | 'listening';
}

export async function startAdkAgent(options: AdkAgentOptions = {}): Promise<InteropAgent> {
  // toA2a warns loudly (and rightly) that it runs without authentication: expected on loopback in a test.
  setLogLevel(LogLevel.ERROR);
  const journal = new AgentJournal();
  const listener = await listenOnLoopback(() => journal.release());
  const app = express();
  // Parsed here so the cancel requests can be seen; ADK's routers then find the body already parsed.
  app.use(express.json({ limit: '1mb' }));
  app.use((request, _response, next) => {
    const taskId = cancelledTaskId(request);
    if (taskId !== undefined) journal.recordCancel(taskId);
    next();
  });
  await toA2a(new AdkScriptedAgent(journal), {
    app,
    port: options.cardPort === 'listening' ? listener.port : (options.cardPort ?? (await unusedLoopbackPort())),
    allowUnauthenticated: true,
  });
  listener.serve(app);
  return { url: `${listener.origin}/`, journal, close: listener.close };
}

/** The task a JSON-RPC `tasks/cancel` or a REST `POST /rest/v1/tasks/{id}:cancel` asks to cancel. */
function cancelledTaskId(request: Request): string | undefined {
  if (request.method !== 'POST') return undefined;
  const body: unknown = request.body;
  if (
    request.path === '/jsonrpc' &&
    typeof body === 'object' &&
    body !== null &&
    (body as { method?: unknown }).method === 'tasks/cancel'
  ) {
    const id = (body as { params?: { id?: unknown } }).params?.id;
    return typeof id === 'string' ? id : '';
  }
  return /^\/rest\/v1\/tasks\/([^/]+):cancel$/.exec(request.path)?.[1];
}
