/**
 * `agent-team mcp`: the team as an MCP server over stdio (the official SDK), so other agents (Claude
 * Code, Copilot's agent mode, Cursor) can hand it work: `delegate`, `task_output`, `task_stop`. Proposed
 * edits come back as unified diffs and are never applied: the calling agent or its user decides.
 * Stdin and stdout carry the protocol, so nothing else is written to stdout and no agent can ask questions.
 * The server belongs to its client: when the client goes (stdin closes) every run stops and the process
 * exits; a cancelled call stops its run; at most `maxActiveRuns` delegated runs are at work at once.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { errorMessage } from '../engine/errors.js';
import { isTerminal } from '../engine/tasks/types.js';
import { formatTaskResult } from '../engine/delegation/task-result-text.js';
import { coordinatorName } from '../engine/roles/coordinator.js';
import type { McpArguments } from './arguments.js';
import { type CliEngine, createCliEngine } from './cli-engine.js';
import { McpStdioTransport } from './mcp-stdio-transport.js';
import { describeRun, settled } from './run-report.js';

declare const AGENT_TEAM_VERSION: string | undefined;

export interface McpContext {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: { write(text: string): void };
  environment: NodeJS.ProcessEnv;
}

/** Delegated runs at work at once for the client; one more is refused with a tool error that says so. */
export const maxActiveRuns = 16;

/** Resolves when the client closes the connection; every task still running is stopped then. */
export async function mcpCommand(args: McpArguments, context: McpContext): Promise<number> {
  const engine = await createCliEngine({ ...args, environment: context.environment, stderr: context.stderr });
  const server = new McpServer({ name: 'agent-team', version: typeof AGENT_TEAM_VERSION === 'string' ? AGENT_TEAM_VERSION : 'dev' });
  registerTools(server, engine);
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

function registerTools(server: McpServer, engine: CliEngine): void {
  const roles = () => [coordinatorName, ...engine.roles.list().map((role) => role.name)];
  server.registerTool(
    'delegate',
    {
      description: `Hand a coding task to Agent Team in this workspace. subagent_type "coordinator" plans it and delegates the parts; or name one role to run it directly (roles: ${roles().join(', ')}). Edits come back as unified diffs for review; nothing is written.`,
      inputSchema: {
        subagent_type: z.string().min(1).describe('coordinator, or a role of the team'),
        description: z.string().min(1).describe('A 3-5 word title'),
        prompt: z.string().min(1).describe('The full task: it sees nothing of your conversation'),
        run_in_background: z.boolean().optional().describe('true: return the task id at once; read the result with task_output'),
      },
    },
    async (input, extra) =>
      answer(async () => {
        const active = engine.taskManager.list().filter((task) => task.parentId === null && !isTerminal(task.status)).length;
        if (active >= maxActiveRuns) throw new Error(`Agent Team is already at work on ${active} delegated tasks, the most it takes at once (${maxActiveRuns}): wait for one to end (task_output) or stop one (task_stop), then delegate again.`);
        const role = input.subagent_type === coordinatorName ? undefined : input.subagent_type;
        // Started in the background either way: a foreground call waits below, where a cancel can reach it.
        const started = await engine.team.delegate({ prompt: input.prompt, role, description: input.description, mode: 'background', awaitBackgroundTasks: true });
        if (input.run_in_background) return `Task ${started.task.id} started in the background; read its result with task_output {"task_id": "${started.task.id}"}.`;
        // The client cancelled the call (notifications/cancelled): its run stops, children and all.
        const stop = () => void engine.taskManager.stop(started.task.id, { kind: 'user' }).catch(() => undefined);
        if (extra.signal.aborted) stop();
        extra.signal.addEventListener('abort', stop, { once: true });
        try {
          return describeRun(engine, await settled(engine, started.task.id));
        } finally {
          extra.signal.removeEventListener('abort', stop);
        }
      }),
  );
  server.registerTool(
    'task_output',
    { description: 'The status and result of a task started with delegate (with its proposed edits as diffs once it has ended).', inputSchema: { task_id: z.string().min(1) } },
    async (input) =>
      answer(async () => {
        const task = engine.taskManager.get(input.task_id);
        if (!task) throw new Error(`There is no task ${input.task_id}.`);
        return isTerminal(task.status) ? describeRun(engine, task) : formatTaskResult(task, { partialOutput: engine.taskManager.partialOutput(task.id) });
      }),
  );
  server.registerTool(
    'task_stop',
    { description: 'Stop a task started with delegate, and everything below it.', inputSchema: { task_id: z.string().min(1) } },
    async (input) =>
      answer(async () => {
        if (!engine.taskManager.get(input.task_id)) throw new Error(`There is no task ${input.task_id}.`);
        const stopped = await engine.taskManager.stop(input.task_id, { kind: 'user' });
        return formatTaskResult(stopped);
      }),
  );
}

async function answer(work: () => Promise<string>): Promise<{ content: Array<{ type: 'text'; text: string }>; isError?: boolean }> {
  try {
    return { content: [{ type: 'text', text: await work() }] };
  } catch (error) {
    return { content: [{ type: 'text', text: errorMessage(error) }], isError: true };
  }
}
