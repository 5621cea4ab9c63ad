/**
 * One MCP server, connected for one task: started (a stdio child, in the OS sandbox over a scratch copy of
 * the workspace where there is one, or a streamable HTTP session), its tools listed and offered as engine
 * tools, closed when the task ends. Starting and every call are bounded by time and by the task's signal;
 * what a server sends back is capped where it enters. Secrets stay out: a stdio server gets what a command
 * gets (child-environment.ts: an allowlist, no configured key under any name), plus its own `env`.
 */
import { withDeadline } from '../deadline.js';
import * as z from 'zod';
import type { Tool } from '../agent/tool.js';
import { type Clock, systemClock } from '../clock.js';
import { errorMessage } from '../errors.js';
import { childEnvironment } from '../commands/child-environment.js';
import { isProcessAlive } from '../process-alive.js';
import { redactSecrets } from '../secrets.js';
import type { McpServerConfig } from '../roles/mcp-server-config.js';
import type { SandboxedServer, ServerProgram, ServerTask } from '../commands/sandbox/server-launch.js';
import { mcpToolName } from './mcp-tool-names.js';

export type { ServerTask };

export interface McpConnectOptions {
  /** The workspace root: a stdio server's working directory when it runs outside the sandbox. */
  cwd: string;
  /** The environment a stdio server's is built from (child-environment.ts). Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** How long starting may take (spawn, initialize, list tools). Default 30,000 ms. */
  startTimeoutMs?: number;
  /** How long one tool call may take. Default 120,000 ms. */
  callTimeoutMs?: number;
  clock?: Clock;
  /** Values to keep out of messages (the keys). */
  secrets?: readonly string[];
  /**
   * Starts a stdio server in the OS sandbox, over a scratch copy of `task`'s tree held until it is
   * released (commands/sandbox/server-launch.ts): resolves with what to run instead, or undefined to run
   * it as it is (no sandbox here, or the user turned it off). Default: as it is.
   */
  sandbox?(server: string, program: ServerProgram, task: ServerTask): Promise<SandboxedServer | undefined>;
}

export interface McpConnection {
  readonly server: string;
  readonly tools: Tool[];
  /** What the task's transcript and agent are told about where it runs (it asked for the network and did not get it). */
  readonly notices: readonly string[];
  close(): Promise<void>;
}

/** What a result may hold at most before it is cut (the agent loop caps tool results again, later). */
const maxResultCharacters = 100_000;
const maxTools = 100;
/** A tool's input schema larger than this (as JSON) is shown as a plain object: a server cannot flood every request. */
const maxSchemaCharacters = 20_000;

export async function connectMcpServer(
  server: string,
  config: McpServerConfig,
  options: McpConnectOptions,
  task: ServerTask,
): Promise<McpConnection> {
  const { signal } = task;
  const sdk = await import('./mcp-client-sdk.js');
  const client = new sdk.Client({ name: 'agent-team', version: '0.1.0' });
  const stderr: string[] = [];
  let sandboxed: SandboxedServer | undefined;
  let transport: InstanceType<typeof sdk.StdioClientTransport> | InstanceType<typeof sdk.StreamableHTTPClientTransport>;
  if (config.type === 'stdio') {
    const plain = {
      command: config.command,
      args: [...config.args],
      environment: serverEnvironment(options.environment ?? process.env, config.env, options.secrets ?? []),
      network: config.network ?? false,
    };
    try {
      sandboxed = await options.sandbox?.(server, plain, task);
    } catch (error) {
      throw new Error(redactSecrets(`MCP server '${server}' did not start: ${errorMessage(error)}`, options.secrets ?? []), {
        cause: error,
      });
    }
    const launch = sandboxed ?? { ...plain, cwd: options.cwd };
    transport = new sdk.StdioClientTransport({
      command: launch.command,
      args: [...launch.args],
      env: launch.environment,
      cwd: launch.cwd,
      stderr: 'pipe',
    });
  } else {
    transport = new sdk.StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: { ...config.headers } } });
  }
  if (transport instanceof sdk.StdioClientTransport) {
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk.toString('utf8'));
      if (stderr.length > 20) stderr.shift();
    });
  }
  const close = closer(client, () => ('pid' in transport ? (transport.pid ?? undefined) : undefined), sandboxed);
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  try {
    // The SDK's timeouts run on the real clock; this deadline runs on the engine's, so tests drive it.
    const deadline = {
      clock: options.clock ?? systemClock,
      timeoutMs: startTimeoutMs,
      signal,
      expire: (): never => {
        throw new Error(`no answer within ${Math.round(startTimeoutMs / 1000)} s`);
      },
    };
    await withDeadline(client.connect(transport, { signal, timeout: startTimeoutMs }), deadline);
    const listed = await withDeadline(client.listTools(undefined, { signal, timeout: startTimeoutMs }), deadline);
    const tools = listed.tools.slice(0, maxTools).map((tool) => toEngineTool(server, tool, client, options, sandboxed?.note));
    return { server, tools, notices: sandboxed?.notices ?? [], close };
  } catch (error) {
    await close();
    const said = stderr.join('').trim().split('\n').slice(-3).join(' ').slice(0, 500);
    const detail = `${errorMessage(error)}${said ? ` (it said: ${said})` : ''}`;
    throw new Error(redactSecrets(`MCP server '${server}' did not start: ${detail}`, options.secrets ?? []));
  }
}

type ListedTool = { name: string; description?: string; inputSchema: Record<string, unknown> };
type CallingClient = {
  callTool(
    request: { name: string; arguments?: Record<string, unknown> },
    schema?: undefined,
    options?: { signal?: AbortSignal; timeout?: number },
  ): Promise<unknown>;
};

function toEngineTool(server: string, tool: ListedTool, client: CallingClient, options: McpConnectOptions, note?: string): Tool {
  const callTimeoutMs = options.callTimeoutMs ?? 120_000;
  return {
    name: mcpToolName(server, tool.name),
    description: `${(tool.description ?? '').slice(0, 2000)} (from the MCP server '${server}')${note ? ` ${note}` : ''}`.trim(),
    inputSchema: z.record(z.string(), z.unknown()),
    jsonSchema:
      JSON.stringify(tool.inputSchema).length > maxSchemaCharacters ? { type: 'object' } : { type: 'object', ...tool.inputSchema },
    readOnly: false,
    timeoutMs: callTimeoutMs,
    async execute(input, context) {
      const result = (await client.callTool({ name: tool.name, arguments: input as Record<string, unknown> }, undefined, {
        signal: context.signal,
        timeout: callTimeoutMs,
      })) as {
        content?: Array<{ type: string; text?: string; mimeType?: string }>;
        isError?: boolean;
      };
      const text = describeContent(result.content ?? []);
      // A write the sandbox refused (outside the copy) says why, and what to do instead.
      if (result.isError)
        throw new Error(
          `${text || `the MCP tool ${tool.name} failed without saying why`}${note && /read-only file system|EROFS|EACCES|permission denied/i.test(text) ? ` (${note})` : ''}`,
        );
      return text;
    },
  };
}

/** Text parts as they are; other content named briefly (the model cannot see images through here). */
function describeContent(content: Array<{ type: string; text?: string; mimeType?: string }>): string {
  const text = content
    .map((part) =>
      part.type === 'text' ? (part.text ?? '') : `[${part.type}${part.mimeType ? ` ${part.mimeType}` : ''} content not shown]`,
    )
    .join('\n');
  return text.length > maxResultCharacters
    ? `${text.slice(0, maxResultCharacters)}\n[cut: the result had ${text.length} characters]`
    : text;
}

/**
 * Closes the session and the server, then gives its scratch copy back: reused only when the server's
 * process is known to be gone (the SDK stops waiting for it after a SIGKILL), else removed.
 */
function closer(
  client: { close(): Promise<void> },
  processId: () => number | undefined,
  sandboxed: SandboxedServer | undefined,
): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      const pid = processId();
      await client.close().catch(() => undefined);
      sandboxed?.release(pid === undefined || !isProcessAlive(pid));
    })();
    return closing;
  };
}

/** One rule for every process the engine starts: what a command gets, plus the server's own `env`. */
function serverEnvironment(
  parent: Readonly<Record<string, string | undefined>>,
  own: Readonly<Record<string, string>>,
  secrets: readonly string[],
): Record<string, string> {
  return { ...childEnvironment(parent, { secretValues: secrets }), ...own };
}
