/**
 * A remote A2A agent for the tests, built with the official SDK's server parts (DefaultRequestHandler,
 * InMemoryTaskStore, an AgentExecutor) on our own HTTP server, on 127.0.0.1, port 0. Its card offers
 * JSON-RPC at the protocol versions the test asks for (default 1.0 and 0.3). What it does with a message is
 * the test's `behavior`; it records what it received (prompts, Authorization headers, cancellations).
 */
import { randomUUID } from 'node:crypto';
import { AgentCard } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { startA2aHttpServer } from '../../src/engine/servers/a2a/a2a-http-server.js';
import { artifactUpdate, message, statusUpdate, task, type TaskStateName, textOf, textPart } from '../../src/engine/a2a/a2a-objects.js';
import { createDeferred } from '../../src/engine/util/deferred.js';

export interface TestAgentTurn {
  taskId: string;
  contextId: string;
  prompt: string;
  bus: ExecutionEventBus;
  /** Resolves when the client cancels this task. */
  cancelled: Promise<void>;
}

export type TestAgentBehavior = (turn: TestAgentTurn) => Promise<void>;

export interface TestAgent {
  url: string;
  prompts: string[];
  /** The metadata of each message received (`agentTeam/hops` among it), in order. */
  metadata: Array<Record<string, unknown> | undefined>;
  /** The Authorization header of each request, `undefined` when there was none. */
  authorizations: Array<string | undefined>;
  /** The A2A-Version header of each request, `undefined` when there was none (0.3 clients send none). */
  versions: Array<string | undefined>;
  /** Task ids the executor was asked to cancel. */
  cancelledTasks: string[];
  /** Resolves when the executor has received its `n`th message. */
  started(n?: number): Promise<void>;
  close(): Promise<void>;
}

export interface TestAgentOptions {
  /** The protocol versions its card offers JSON-RPC at. Default ['1.0', '0.3']. */
  versions?: string[];
  /** Refuse every cancellation, as Google ADK's executor does. Default false. */
  refuseCancel?: boolean;
}

/** A status event; with text, the agent's message. */
export function status(turn: TestAgentTurn, state: TaskStateName, text?: string, metadata?: Record<string, unknown>) {
  const said =
    text === undefined
      ? undefined
      : message({ role: 'agent', messageId: randomUUID(), parts: [textPart(text)], taskId: turn.taskId, contextId: turn.contextId });
  turn.bus.publish(AgentEvent.statusUpdate(statusUpdate(turn.taskId, turn.contextId, state, said, metadata)));
}

export function artifactChunk(turn: TestAgentTurn, text: string, append: boolean, lastChunk = false) {
  turn.bus.publish(
    AgentEvent.artifactUpdate(
      artifactUpdate(turn.taskId, turn.contextId, { artifactId: 'answer', parts: [textPart(text)], append, lastChunk }),
    ),
  );
}

export async function startTestAgent(behavior: TestAgentBehavior, options: TestAgentOptions = {}): Promise<TestAgent> {
  const prompts: string[] = [];
  const metadata: Array<Record<string, unknown> | undefined> = [];
  const authorizations: Array<string | undefined> = [];
  const versions: Array<string | undefined> = [];
  const cancelledTasks: string[] = [];
  const cancels = new Map<string, () => void>();
  const startWaiters: Array<{ count: number; resolve: () => void }> = [];
  const executor: AgentExecutor = {
    async execute(context: RequestContext, bus: ExecutionEventBus) {
      const prompt = textOf(context.userMessage.parts);
      prompts.push(prompt);
      metadata.push(context.userMessage.metadata as Record<string, unknown> | undefined);
      const cancelled = createDeferred();
      cancels.set(context.taskId, () => cancelled.resolve());
      bus.publish(AgentEvent.task(task(context.taskId, context.contextId, 'submitted', [context.userMessage])));
      for (const waiter of startWaiters.filter((candidate) => prompts.length >= candidate.count)) waiter.resolve();
      await behavior({ taskId: context.taskId, contextId: context.contextId, prompt, bus, cancelled: cancelled.promise });
      bus.finished();
    },
    async cancelTask(taskId: string, bus: ExecutionEventBus) {
      cancelledTasks.push(taskId);
      if (options.refuseCancel) throw new Error('Task cancellation is not supported yet.');
      cancels.get(taskId)?.();
      bus.publish(AgentEvent.statusUpdate(statusUpdate(taskId, '', 'canceled')));
      bus.finished();
    },
  };
  const card = (url: string): AgentCard =>
    AgentCard.fromJSON({
      name: 'test-remote',
      description: 'A remote agent for the tests',
      supportedInterfaces: (options.versions ?? ['1.0', '0.3']).map((protocolVersion) => ({
        url,
        protocolBinding: 'JSONRPC',
        protocolVersion,
      })),
      version: '1.0.0',
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'answer', name: 'answer', description: 'Answers', tags: [] }],
    });
  const server = await startA2aHttpServer({
    port: 0,
    handler: (url) => new DefaultRequestHandler(card(url), new InMemoryTaskStore(), executor),
    observe: (headers) => {
      authorizations.push(headers.authorization);
      versions.push(typeof headers['a2a-version'] === 'string' ? headers['a2a-version'] : undefined);
    },
  });
  return {
    url: server.url,
    prompts,
    metadata,
    authorizations,
    versions,
    cancelledTasks,
    started(n = 1) {
      if (prompts.length >= n) return Promise.resolve();
      return new Promise((resolve) => startWaiters.push({ count: n, resolve }));
    },
    close: () => server.close(),
  };
}
