/**
 * `agent-team mcp`: the team as an MCP server over stdio (the official SDK), so other agents (Claude
 * Code, Copilot's agent mode, Cursor) can hand it work: `delegate`, `task_output`, `task_stop`. Proposed
 * edits come back as unified diffs, hunks numbered: the calling agent or its user decides, and writes the
 * hunks it wants with `apply_hunks` (nothing is written otherwise).
 * Stdin and stdout carry the protocol, so nothing else is written to stdout; agents' questions (a plan to
 * approve with `--approve-plan`, an `AskUser`) go to the client as elicitations, where it supports them.
 * The server belongs to its client: when the client goes (stdin closes) every run stops and the process
 * exits; a cancelled call stops its run; at most `maxActiveRuns` delegated runs are at work at once.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { ElicitedQuestions, McpStdioTransport, registerHunkTool, registerTeamTools } from '../engine/index.js';
import type { McpArguments } from './arguments.js';
import { createCliEngine } from './cli-engine.js';

declare const AGENT_TEAM_VERSION: string | undefined;

export interface McpContext {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: { write(text: string): void };
  environment: NodeJS.ProcessEnv;
}

/** Resolves when the client closes the connection; every task still running is stopped then. */
export async function mcpCommand(args: McpArguments, context: McpContext): Promise<number> {
  const server = new McpServer({ name: 'agent-team', version: typeof AGENT_TEAM_VERSION === 'string' ? AGENT_TEAM_VERSION : 'dev' });
  const engine = await createCliEngine({
    ...args,
    userChannel: () => new ElicitedQuestions(() => server.server),
    planAnswerHowTo: 'over MCP the plan is put to the client as an elicitation, and this client did not answer it (or cannot elicit)',
    environment: context.environment,
    stderr: context.stderr,
  });
  registerTeamTools(server, engine);
  registerHunkTool(server, { ...engine, ...(engine.runLog ? { restorePoints: engine.runLog } : {}) });
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  await server.connect(new McpStdioTransport(context.stdin, context.stdout, JSONRPCMessageSchema));
  await closed;
  // The client is gone: nobody will read what its runs would still produce.
  await engine.taskManager.stopAll({ kind: 'shutdown' });
  await engine.close();
  return 0;
}
