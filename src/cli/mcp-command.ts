/**
 * `agent-team mcp`: the team as an MCP server over stdio (the official SDK), so other agents (Claude
 * Code, Copilot's agent mode, Cursor) can hand it work: `delegate`, `task_output`, `task_stop`. Proposed
 * edits come back as unified diffs and are never applied: the calling agent or its user decides.
 * Stdin and stdout carry the protocol, so nothing else is written to stdout and no agent can ask questions.
 * The server belongs to its client: when the client goes (stdin closes) every run stops and the process
 * exits; a cancelled call stops its run; at most `maxActiveRuns` delegated runs are at work at once.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerTeamTools } from '../engine/servers/mcp/team-mcp-tools.js';
import type { McpArguments } from './arguments.js';
import { createCliEngine } from './cli-engine.js';
import { McpStdioTransport } from '../engine/servers/mcp/mcp-stdio-transport.js';

declare const AGENT_TEAM_VERSION: string | undefined;

export interface McpContext {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: { write(text: string): void };
  environment: NodeJS.ProcessEnv;
}

/** Resolves when the client closes the connection; every task still running is stopped then. */
export async function mcpCommand(args: McpArguments, context: McpContext): Promise<number> {
  const engine = await createCliEngine({ ...args, environment: context.environment, stderr: context.stderr });
  const server = new McpServer({ name: 'agent-team', version: typeof AGENT_TEAM_VERSION === 'string' ? AGENT_TEAM_VERSION : 'dev' });
  registerTeamTools(server, engine);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  await server.connect(new McpStdioTransport(context.stdin, context.stdout));
  await closed;
  // The client is gone: nobody will read what its runs would still produce.
  await engine.taskManager.stopAll({ kind: 'shutdown' });
  engine.roles.dispose();
  await engine.taskManager.close();
  await engine.close();
  return 0;
}
