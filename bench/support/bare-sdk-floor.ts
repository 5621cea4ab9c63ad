/**
 * B2's floor: the same conversations made with the bare SDKs and no engine, in the same process, against
 * the same server. Each of N conversations streams a first request (the system instruction and tools the
 * engine itself sent, and the prompt), reads the file the answer asks for (as any app would, with fs), and
 * streams a second request carrying the tool result. Its wall time is what Node, the SDKs and the server
 * cost on this machine at this moment: the engine is then judged against it, not only against the ideal.
 */
import { readFile } from 'node:fs/promises';
import { performance as nodePerformance } from 'node:perf_hooks';
import path from 'node:path';
import type { ModelProvider } from '../../src/engine/model/create-model.js';
import { nodeHttpFetch } from '../../src/engine/model/http-transport.js';
import type { ToolDefinition } from '../../src/engine/model/types.js';

export interface FloorServer {
  baseUrl: string;
  openaiBaseUrl: string;
}

/** What the engine's subagent sent in its first request, taken from the engine's own run: the floor's requests are the same. */
export interface FloorRequest {
  system: string;
  tools: ToolDefinition[];
}

/** What the floor's conversations took: wall time, this process's CPU time and its main thread's busy time per conversation (ms). */
export interface FloorFigures {
  wallMs: number;
  cpuPerConversationMs: number;
  /** The event loop's busy time per conversation. */
  mainThreadPerConversationMs: number;
}

/**
 * The SDKs' HTTP: `sdk` is their default (Node's fetch), as an app written against them gets it; `engine`
 * is the engine's own transport (`nodeHttpFetch`), to see what the engine adds beside what it saves.
 */
export type FloorTransport = 'sdk' | 'engine';

/** Runs `conversations` two-request conversations at once with the bare SDK. */
export async function bareSdkFloor(
  provider: ModelProvider,
  server: FloorServer,
  root: string,
  conversations: number,
  request: FloorRequest,
  transport: FloorTransport = 'sdk',
): Promise<FloorFigures> {
  const options = { apiKey: 'bench-key', maxRetries: 0, ...(transport === 'engine' ? { fetch: nodeHttpFetch } : {}) };
  const run =
    provider === 'openai'
      ? await openaiConversation(server, request, root, options)
      : await anthropicConversation(server, request, root, options);
  const cpuStart = process.cpuUsage();
  const loopStart = nodePerformance.eventLoopUtilization();
  const start = performance.now();
  await Promise.all(Array.from({ length: conversations }, (_, index) => run(`Read notes.txt and report what it says (${index}).`)));
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const loop = nodePerformance.eventLoopUtilization(loopStart);
  return {
    wallMs,
    cpuPerConversationMs: (cpu.user + cpu.system) / 1000 / conversations,
    mainThreadPerConversationMs: loop.active / conversations,
  };
}

/** The client's options beside its base URL. */
type ClientOptions = { apiKey: string; maxRetries: number; fetch?: typeof nodeHttpFetch };

async function openaiConversation(
  server: FloorServer,
  { system, tools }: FloorRequest,
  root: string,
  options: ClientOptions,
): Promise<(prompt: string) => Promise<void>> {
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({ ...options, baseURL: server.openaiBaseUrl });
  const definitions = tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
  return async (prompt) => {
    const messages: Array<Record<string, unknown>> = [
      { role: 'system', content: system },
      { role: 'user', content: prompt },
    ];
    const call = { id: '', name: '', arguments: '' };
    for await (const chunk of await client.chat.completions.create({
      model: 'mock-model',
      messages: messages as never,
      tools: definitions,
      stream: true,
      stream_options: { include_usage: true },
    })) {
      const delta = chunk.choices[0]?.delta?.tool_calls?.[0];
      if (delta?.id) call.id = delta.id;
      if (delta?.function?.name) call.name = delta.function.name;
      if (delta?.function?.arguments) call.arguments += delta.function.arguments;
    }
    const filePath = (JSON.parse(call.arguments || '{}') as { file_path?: string }).file_path ?? 'notes.txt';
    const content = await readFile(path.join(root, filePath), 'utf8');
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }],
    });
    messages.push({ role: 'tool', tool_call_id: call.id, content });
    for await (const chunk of await client.chat.completions.create({
      model: 'mock-model',
      messages: messages as never,
      tools: definitions,
      stream: true,
      stream_options: { include_usage: true },
    }))
      void chunk;
  };
}

async function anthropicConversation(
  server: FloorServer,
  { system, tools }: FloorRequest,
  root: string,
  options: ClientOptions,
): Promise<(prompt: string) => Promise<void>> {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const client = new Anthropic({ ...options, baseURL: server.baseUrl });
  const definitions = tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema as never }));
  return async (prompt) => {
    const messages: Array<{ role: 'user' | 'assistant'; content: unknown }> = [{ role: 'user', content: prompt }];
    const call = { id: '', name: '', json: '' };
    for await (const event of await client.messages.create({
      model: 'mock-model',
      max_tokens: 4096,
      system,
      messages: messages as never,
      tools: definitions,
      stream: true,
    })) {
      if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
        call.id = event.content_block.id;
        call.name = event.content_block.name;
      }
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') call.json += event.delta.partial_json;
    }
    const input = JSON.parse(call.json || '{}') as { file_path?: string };
    const content = await readFile(path.join(root, input.file_path ?? 'notes.txt'), 'utf8');
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: call.id, name: call.name, input }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content }] });
    for await (const event of await client.messages.create({
      model: 'mock-model',
      max_tokens: 4096,
      system,
      messages: messages as never,
      tools: definitions,
      stream: true,
    }))
      void event;
  };
}
