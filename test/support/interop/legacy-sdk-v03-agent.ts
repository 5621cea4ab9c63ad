/**
 * A genuine protocol 0.3 agent: built with the old SDK (`a2a-sdk-v03`, `@a2a-js/sdk` 0.3.14) as its
 * README shows — `DefaultRequestHandler` behind its express `jsonRpcHandler`, `restHandler` (`/v1/...`)
 * and `agentCardHandler` — saying the interop script with 0.3 events (`kind`, `final`). What agents
 * deployed before 1.0 (kagent, ADK's `toA2a`) look like on the wire.
 */
import { randomUUID } from 'node:crypto';
import type { AgentCard, Message, Task, TaskStatusUpdateEvent } from 'a2a-sdk-v03';
import {
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from 'a2a-sdk-v03/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from 'a2a-sdk-v03/server/express';
import express from 'express';
import { createDeferred, type Deferred } from '../../../src/engine/util/deferred.js';
import { AgentJournal } from './agent-journal.js';
import { type InteropAgent, interopScript } from './interop-agent.js';
import { listenOnLoopback } from './loopback-listener.js';
import type { AgentOptions } from './v1-sdk-agent.js';

export async function startLegacySdkV03Agent(options: AgentOptions): Promise<InteropAgent> {
  const journal = new AgentJournal();
  const listener = await listenOnLoopback(() => journal.release());
  const jsonRpc = { url: `${listener.origin}/a2a/jsonrpc`, transport: 'JSONRPC' };
  const rest = { url: `${listener.origin}/a2a/rest`, transport: 'HTTP+JSON' };
  const preferred = options.preferred === 'JSONRPC' ? jsonRpc : rest;
  const card: AgentCard = {
    name: 'interop-legacy-v03-agent',
    description: 'An agent nobody here wrote, on the 0.3 SDK, for the interoperability tests',
    protocolVersion: '0.3.0',
    version: '1.0.0',
    url: preferred.url,
    preferredTransport: preferred.transport,
    additionalInterfaces: [jsonRpc, rest],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'answer', name: 'answer', description: 'Answers questions', tags: [] }],
  };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), v03AnsweringExecutor(journal));
  const app = express();
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/a2a/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  listener.serve(app);
  return { url: `${listener.origin}/`, journal, close: listener.close };
}

/** The interop script in 0.3 events; a cancel ends the task `canceled`. */
function v03AnsweringExecutor(journal: AgentJournal): AgentExecutor {
  const running = new Map<string, { contextId: string; cancelled: Deferred<void> }>();
  const statusUpdate = (taskId: string, contextId: string, state: Task['status']['state'], text?: string): TaskStatusUpdateEvent => ({
    kind: 'status-update',
    taskId,
    contextId,
    final: ['completed', 'canceled', 'failed', 'rejected'].includes(state),
    status: {
      state,
      timestamp: new Date().toISOString(),
      ...(text === undefined ? {} : { message: agentMessage(taskId, contextId, text) }),
    },
  });
  return {
    async execute(context: RequestContext, bus: ExecutionEventBus) {
      const { taskId, contextId, userMessage } = context;
      const prompt = userMessage.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
      journal.recordPrompt(prompt);
      const cancelled = createDeferred();
      running.set(taskId, { contextId, cancelled });
      const chunk = (text: string, append: boolean, lastChunk: boolean) =>
        bus.publish({
          kind: 'artifact-update',
          taskId,
          contextId,
          append,
          lastChunk,
          artifact: { artifactId: 'answer', name: 'answer', parts: [{ kind: 'text', text }] },
        });

      bus.publish({ kind: 'task', id: taskId, contextId, status: { state: 'submitted' }, history: [userMessage] });
      bus.publish(statusUpdate(taskId, contextId, 'working', interopScript.progress(prompt)));
      chunk(interopScript.chunks[0], false, false);
      journal.recordStarted();
      const outcome = await Promise.race([
        journal.released.then(() => 'answer' as const),
        cancelled.promise.then(() => 'cancelled' as const),
      ]);
      running.delete(taskId);
      if (outcome === 'cancelled') return;
      chunk(interopScript.chunks[1], true, true);
      bus.publish(statusUpdate(taskId, contextId, 'completed'));
      bus.finished();
    },
    async cancelTask(taskId: string, bus: ExecutionEventBus) {
      journal.recordCancel(taskId);
      const turn = running.get(taskId);
      bus.publish(statusUpdate(taskId, turn?.contextId ?? '', 'canceled'));
      bus.finished();
      turn?.cancelled.resolve();
    },
  };
}

function agentMessage(taskId: string, contextId: string, text: string): Message {
  return { kind: 'message', messageId: randomUUID(), role: 'agent', taskId, contextId, parts: [{ kind: 'text', text }] };
}
