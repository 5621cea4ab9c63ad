/**
 * A streamable-HTTP MCP server for the tests, with the official SDK (stateless, as the SDK's
 * simpleStatelessStreamableHttp example, on a free port): one tool, `shout`. It records each request's
 * Authorization header, so a test can tell whether the server was reached at all and with what.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';

export interface HttpMcpServer {
  url: string;
  /** The Authorization header of each request ('' when none). */
  readonly seen: string[];
  close(): Promise<void>;
}

export async function startHttpMcpServer(): Promise<HttpMcpServer> {
  const seen: string[] = [];
  const http: Server = createServer(async (request, response) => {
    seen.push(request.headers.authorization ?? '');
    const server = new McpServer({ name: 'http-test', version: '1.0.0' });
    server.registerTool('shout', { description: 'Upper-cases the text.', inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: 'text', text: text.toUpperCase() }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    let body = '';
    for await (const chunk of request) body += String(chunk);
    await transport.handleRequest(request, response, body === '' ? undefined : JSON.parse(body));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () => {
      http.closeAllConnections();
      return new Promise((resolve) => http.close(() => resolve()));
    },
  };
}
