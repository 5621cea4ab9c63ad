/**
 * A remote A2A agent for the tests, built with the official SDK's server parts (DefaultRequestHandler,
 * InMemoryTaskStore, an AgentExecutor) on 127.0.0.1, port 0. What it does with a message is the test's
 * `behavior`; it records what it received (prompts, Authorization headers, cancellations).
 */
import { randomUUID } from 'node:crypto';
import type { AgentCard, Message, Task } from '@a2a-js/sdk';
import { type AgentExecutor, DefaultRequestHandler, type ExecutionEventBus, InMemoryTaskStore, type RequestContext } from '@a2a-js/sdk/server';
import { startA2aHttpServer } from '../../src/engine/servers/a2a/a2a-http-server.js';
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
  /** The Authorization header of each request, `undefined` when there was none. */
  authorizations: Array<string | undefined>;
  /** Task ids the executor was asked to cancel. */
  cancelledTasks: string[];
  /** Resolves when the executor has received its `n`th message. */
  started(n?: number): Promise<void>;
  close(): Promise<void>;
}

/** A status event, final for the states that end a task. */
export function status(turn: TestAgentTurn, state: Task['status']['state'], text?: string, metadata?: Record<string, unknown>) {
  const final = ['completed', 'failed', 'canceled', 'rejected', 'input-required'].includes(state);
  const message: Message | undefined = text === undefined ? undefined : { kind: 'message', role: 'agent', messageId: randomUUID(), parts: [{ kind: 'text', text }], taskId: turn.taskId, contextId: turn.contextId };
  turn.bus.publish({ kind: 'status-update', taskId: turn.taskId, contextId: turn.contextId, status: { state, ...(message ? { message } : {}) }, final, ...(metadata ? { metadata } : {}) });
}

export function artifactChunk(turn: TestAgentTurn, text: string, append: boolean, lastChunk = false) {
  turn.bus.publish({ kind: 'artifact-update', taskId: turn.taskId, contextId: turn.contextId, append, lastChunk, artifact: { artifactId: 'answer', parts: [{ kind: 'text', text }] } });
}

export async function startTestAgent(behavior: TestAgentBehavior): Promise<TestAgent> {
  const prompts: string[] = [];
  const authorizations: Array<string | undefined> = [];
  const cancelledTasks: string[] = [];
  const cancels = new Map<string, () => void>();
  const startWaiters: Array<{ count: number; resolve: () => void }> = [];
  const executor: AgentExecutor = {
    async execute(context: RequestContext, bus: ExecutionEventBus) {
      const prompt = context.userMessage.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
      prompts.push(prompt);
      const cancelled = createDeferred();
      cancels.set(context.taskId, () => cancelled.resolve());
      bus.publish({ kind: 'task', id: context.taskId, contextId: context.contextId, status: { state: 'submitted' }, history: [context.userMessage] });
      for (const waiter of startWaiters.filter((candidate) => prompts.length >= candidate.count)) waiter.resolve();
      await behavior({ taskId: context.taskId, contextId: context.contextId, prompt, bus, cancelled: cancelled.promise });
      bus.finished();
    },
    async cancelTask(taskId: string, bus: ExecutionEventBus) {
      cancelledTasks.push(taskId);
      cancels.get(taskId)?.();
      bus.publish({ kind: 'status-update', taskId, contextId: '', status: { state: 'canceled' }, final: true });
      bus.finished();
    },
  };
  const card = (url: string): AgentCard => ({
    name: 'test-remote',
    description: 'A remote agent for the tests',
    url,
    version: '1.0.0',
    protocolVersion: '0.3.0',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'answer', name: 'answer', description: 'Answers', tags: [] }],
    preferredTransport: 'JSONRPC',
  });
  const server = await startA2aHttpServer({
    port: 0,
    handler: (url) => new DefaultRequestHandler(card(url), new InMemoryTaskStore(), executor),
    observe: (headers) => {
      authorizations.push(headers.authorization);
    },
  });
  return {
    url: server.url,
    prompts,
    authorizations,
    cancelledTasks,
    started(n = 1) {
      if (prompts.length >= n) return Promise.resolve();
      return new Promise((resolve) => startWaiters.push({ count: n, resolve }));
    },
    close: () => server.close(),
  };
}
