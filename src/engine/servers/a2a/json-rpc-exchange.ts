/**
 * One JSON-RPC request to the A2A endpoint, answered in the protocol version it was written in. Protocol
 * 1.0 names its methods in PascalCase (`SendMessage`), 0.3 as `namespace/verb` (`message/send`): the two are
 * disjoint, so the method alone says which of the SDK's handlers answers (its 1.0 one, or its 0.3
 * compatibility one, which translates to and from the 1.0 handler our executor sits behind). Anything that
 * is not a 1.0 method goes to 0.3, as the spec's version negotiation asks, so a malformed request gets a 0.3
 * error. A stream's first event is awaited before the SSE headers go out, so a request refused at once
 * (another client's task, too many runs) is a plain JSON-RPC error, not a stream carrying one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';
import { isV1JsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { type A2ARequestHandler, defaultServerCallContextBuilder, JsonRpcTransportHandler, validateVersion } from '@a2a-js/sdk/server';
import { protocolGeneration } from '../../a2a/protocol-versions.js';
import { A2aClient } from './task-owners.js';

export class JsonRpcExchange {
  private readonly current: JsonRpcTransportHandler;
  private readonly legacy: LegacyJsonRpcTransportHandler;

  constructor(private readonly handler: A2ARequestHandler) {
    this.current = new JsonRpcTransportHandler(handler);
    this.legacy = new LegacyJsonRpcTransportHandler(handler);
  }

  async answer(
    body: unknown,
    client: string,
    request: IncomingMessage,
    response: ServerResponse,
    onError?: (error: unknown) => void,
  ): Promise<void> {
    const method = (body as { method?: unknown } | null)?.method;
    const legacy = !isV1JsonRpcMethod(method);
    const id = (body as { id?: unknown } | null)?.id ?? null;
    const errorOf = (error: unknown) => ({
      jsonrpc: '2.0',
      id,
      error: legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error) : JsonRpcTransportHandler.mapToJSONRPCError(error),
    });
    let result: unknown;
    try {
      // "1.0.0" and "0.3.0" are the versions the card calls 1.0 and 0.3; anything else is refused as asked.
      const asked = header(request, 'a2a-version');
      const requestedVersion = asked === undefined ? undefined : (protocolGeneration(asked) ?? asked);
      const context = defaultServerCallContextBuilder({
        extensions: undefined,
        user: new A2aClient(client),
        headers: request.headers as Record<string, string | string[] | undefined>,
        requestedVersion,
      });
      // A 1.0 method asked for as 0.3 (or a version the card does not offer) is refused as the spec says.
      validateVersion(context.requestedVersion, await this.handler.getAgentCard(), 'JSONRPC');
      result = await (legacy ? this.legacy : this.current).handle(body as Record<string, unknown>, context);
    } catch (error) {
      return respondJson(response, 200, errorOf(error));
    }
    if (!isAsyncIterator(result)) return respondJson(response, 200, result);
    // 0.3 clients read `tasks/resubscribe` only as a stream, even when it fails at once.
    const alwaysStream = legacy && method === 'tasks/resubscribe';
    if (alwaysStream) startStream(response);
    let first: IteratorResult<unknown>;
    try {
      first = await result.next();
    } catch (error) {
      if (!alwaysStream) return respondJson(response, 200, errorOf(error));
      response.end(formatSSEErrorEvent(errorOf(error)));
      return;
    }
    if (!alwaysStream) startStream(response);
    // A client that goes away ends the stream here; the work goes on until it is cancelled or ends.
    request.socket.once('close', () => void result.return?.(undefined));
    try {
      for (let next = first; !next.done; next = await result.next()) {
        if (response.writableEnded || response.destroyed) break;
        response.write(formatSSEEvent(next.value));
      }
    } catch (error) {
      onError?.(error);
      if (!response.destroyed) response.write(formatSSEErrorEvent(errorOf(error)));
    } finally {
      if (!response.writableEnded) response.end();
    }
  }
}

function startStream(response: ServerResponse): void {
  response.writeHead(200, SSE_HEADERS);
  response.flushHeaders();
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) || undefined;
}

function isAsyncIterator(value: unknown): value is AsyncGenerator<unknown, void, undefined> {
  return (
    typeof (value as AsyncGenerator | null)?.next === 'function' &&
    typeof (value as AsyncGenerator | null)?.[Symbol.asyncIterator] === 'function'
  );
}

export function respondJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}
