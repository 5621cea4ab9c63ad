import { getEventListeners } from 'node:events';
import { z } from 'zod';
import { runAgent } from '../../src/engine/agent/run-agent.js';
import { defineTool, type Tool, type ToolContext } from '../../src/engine/agent/tool.js';
import type { AgentEvent, AgentRunOptions, AgentRunResult } from '../../src/engine/agent/types.js';
import type { Model } from '../../src/engine/model/types.js';
import { createDeferred as deferred } from '../../src/engine/util/deferred.js';

export const system = 'You are a test agent.';
export const prompt = 'Do the task.';

/** Runs the agent with test defaults; `events` collects everything it emitted. */
export async function run(model: Model, options: Partial<AgentRunOptions> = {}): Promise<AgentRunResult & { events: AgentEvent[] }> {
  const events: AgentEvent[] = [];
  const result = await runAgent({
    model,
    system,
    prompt,
    tools: [],
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { ...result, events };
}

export function echoTool(): Tool {
  return defineTool({
    name: 'Echo',
    description: 'Echoes its text.',
    inputSchema: z.object({ text: z.string(), times: z.number().int().optional() }),
    readOnly: true,
    execute: async ({ text, times }) => `echo: ${text.repeat(times ?? 1)}`,
  });
}

/**
 * A tool that runs until its signal aborts (then rejects with the signal's reason), or until the test
 * calls `finish`. `started` resolves when it begins; `contexts` keeps what it was handed.
 */
export function hangingTool(name = 'Hang', timeoutMs?: number) {
  const started = deferred();
  const done = deferred<string>();
  const contexts: ToolContext[] = [];
  const tool = defineTool({
    name,
    description: 'Waits.',
    inputSchema: z.object({}),
    readOnly: true,
    timeoutMs,
    execute: (_input, context) => {
      contexts.push(context);
      started.resolve();
      return new Promise<string>((resolve, reject) => {
        context.signal.addEventListener('abort', () => reject(context.signal.reason as Error), { once: true });
        void done.promise.then(resolve);
      });
    },
  });
  return { tool, started: started.promise, finish: (output: string) => done.resolve(output), contexts };
}

export function abortListenerCount(signal: AbortSignal): number {
  return getEventListeners(signal, 'abort').length;
}
