/**
 * `agent-team mcp` reached through the official MCP SDK's stdio client, as an MCP host starts it: over the
 * mock provider with the Anthropic SDK, and closed after each test.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach } from 'vitest';
import type { CliWorld } from './cli-world.js';

export interface McpClientOfWorld {
  /** Starts `agent-team mcp` in the world's workspace and connects the client; closed after the test. */
  connect(): Promise<Client>;
}

export function useMcpClient(world: CliWorld): McpClientOfWorld {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  return {
    async connect() {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [world.cliPath, 'mcp', '--workspace', world.workspace, '--provider', 'anthropic', '--base-url', world.server.baseUrl],
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ANTHROPIC_API_KEY: 'test-key' },
        stderr: 'pipe',
      });
      client = new Client({ name: 'test-client', version: '1.0.0' });
      await client.connect(transport);
      return client;
    },
  };
}

/** The text parts of a tool result, joined by lines. */
export const textOfToolResult = (result: unknown): string =>
  ((result as { content?: Array<{ text: string }> }).content ?? []).map((part) => part.text).join('\n');
