/**
 * The MCP server's stdio transport, ours rather than the SDK's for three behaviours a server that belongs
 * to its client needs: when the client closes stdin the connection closes (so every run it started
 * stops and the process exits; the SDK's waits forever); a message over the size limit is answered with a
 * JSON-RPC error and skipped (the SDK's closes the whole connection, silently stopping every task); and
 * a line that is not JSON-RPC gets the protocol's parse error instead of nothing.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * What checks a line is a JSON-RPC message: the SDK's `JSONRPCMessageSchema`, handed in by the CLI. Not
 * imported here: the SDK's types module builds about 800 zod schemas when it loads, and the extension's
 * core (which bundles this file through the engine's index but never serves MCP) would pay for them at
 * every first use (B5 in docs/performance.md).
 */
export interface JsonRpcMessageParser {
  parse(value: unknown): JSONRPCMessage;
}

/** One message at most (a prompt with its context fits many times over). */
export const maxMcpMessageBytes = 4 * 1024 * 1024;

export class McpStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private chunks: Buffer[] = [];
  private bufferedBytes = 0;
  /** Bytes of an oversized message still to skip, up to its line's end. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream,
    private readonly stdout: NodeJS.WritableStream,
    private readonly messageSchema: JsonRpcMessageParser,
    private readonly maxBytes = maxMcpMessageBytes,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
    this.stdin.on('error', this.onStreamError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const line = `${JSON.stringify(message)}\n`;
    await new Promise<void>((resolve) => {
      if (this.stdout.write(line)) return resolve();
      // A reader that went away sends no 'drain': the write settles on the stream's end as well.
      const settle = () => {
        this.stdout.off('drain', settle);
        this.stdout.off('error', settle);
        this.stdout.off('close', settle);
        resolve();
      };
      this.stdout.once('drain', settle);
      this.stdout.once('error', settle);
      this.stdout.once('close', settle);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdin.off('error', this.onStreamError);
    this.stdin.pause();
    this.chunks = [];
    this.onclose?.();
  }

  private readonly onEnd = () => void this.close();

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (data.length > 0 && !this.closed) {
      const newline = data.indexOf(0x0a);
      const part = newline < 0 ? data : data.subarray(0, newline);
      if (!this.skipping) {
        this.chunks.push(part);
        this.bufferedBytes += part.length;
        if (this.bufferedBytes > this.maxBytes) this.dropOversized();
      }
      if (newline < 0) return;
      if (this.skipping) this.skipping = false;
      else this.takeLine();
      data = data.subarray(newline + 1);
    }
  };

  /** The message is too large: nothing of it is kept, the rest of its line is skipped, the client told. */
  private dropOversized(): void {
    this.chunks = [];
    this.bufferedBytes = 0;
    this.skipping = true;
    void this.send({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: `Message too large: over ${this.maxBytes} bytes. It was dropped; the connection and its tasks go on.`,
      },
    } as unknown as JSONRPCMessage);
  }

  private takeLine(): void {
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.bufferedBytes = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = this.messageSchema.parse(JSON.parse(line));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      void this.send({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: the line is not a JSON-RPC message.' },
      } as unknown as JSONRPCMessage);
      return;
    }
    this.onmessage?.(message);
  }
}
