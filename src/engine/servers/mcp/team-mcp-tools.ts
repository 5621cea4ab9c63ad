/**
 * The team as an MCP server (the official SDK), so other agents (Claude Code, Copilot's agent mode,
 * Cursor) can hand it work: `delegate`, `task_output`, `task_stop`. Proposed edits come back as unified
 * diffs, hunks numbered, and are not applied: the calling agent or its user decides, and writes the hunks
 * it wants with `apply_hunks` (hunk-mcp-tool.ts). A cancelled call stops its run; at
 * most `maxActiveRuns` delegated runs are at work at once. The transport and the process's life are the
 * caller's (the CLI's `agent-team mcp`, over stdio).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { formatTaskResult } from '../../delegation/task-result-text.js';
import { errorMessage } from '../../errors.js';
import { coordinatorName } from '../../roles/coordinator.js';
import { treeSettled } from '../../tasks/tree-settled.js';
import { isTerminal } from '../../tasks/types.js';
import { describeRun, proposedDiffs } from '../run-report.js';
import { structuredAnswer } from '../structured-answer.js';
import type { TaskSnapshot } from '../../tasks/types.js';
import { maxActiveRuns, type ServedTeam } from '../served-team.js';

export function registerTeamTools(server: McpServer, engine: ServedTeam): void {
  const roles = () => [coordinatorName, ...engine.roles.list().map((role) => role.name)];
  server.registerTool(
    'delegate',
    {
      description: `Hand a coding task to Agent Team in this workspace. subagent_type "coordinator" plans it and delegates the parts; or name one role to run it directly (roles: ${roles().join(', ')}). Edits come back as unified diffs for review (hunks numbered); nothing is written unless you apply hunks with apply_hunks.`,
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
        if (active >= maxActiveRuns)
          throw new Error(
            `Agent Team is already at work on ${active} delegated tasks, the most it takes at once (${maxActiveRuns}): wait for one to end (task_output) or stop one (task_stop), then delegate again.`,
          );
        const role = input.subagent_type === coordinatorName ? undefined : input.subagent_type;
        // Started in the background either way: a foreground call waits below, where a cancel can reach it.
        const started = await engine.team.delegate({
          prompt: input.prompt,
          role,
          description: input.description,
          mode: 'background',
          awaitBackgroundTasks: true,
        });
        if (input.run_in_background)
          return `Task ${started.task.id} started in the background; read its result with task_output {"task_id": "${started.task.id}"}.`;
        // The client cancelled the call (notifications/cancelled): its run stops, children and all.
        const stop = () => void engine.taskManager.stop(started.task.id, { kind: 'user' }).catch(() => undefined);
        if (extra.signal.aborted) stop();
        extra.signal.addEventListener('abort', stop, { once: true });
        try {
          return ended(engine, await treeSettled(engine.taskManager, started.task.id));
        } finally {
          extra.signal.removeEventListener('abort', stop);
        }
      }),
  );
  server.registerTool(
    'task_output',
    {
      description: 'The status and result of a task started with delegate (with its proposed edits as diffs once it has ended).',
      inputSchema: { task_id: z.string().min(1) },
    },
    async (input) =>
      answer(async () => {
        const task = engine.taskManager.get(input.task_id);
        if (!task) throw new Error(`There is no task ${input.task_id}.`);
        return isTerminal(task.status)
          ? ended(engine, task)
          : formatTaskResult(task, { partialOutput: engine.taskManager.partialOutput(task.id) });
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

/** A tool's answer: text, or (a role with an `outputSchema`) its JSON as text and as `structuredContent`. */
type Answer = string | { texts: string[]; structured?: Record<string, unknown> };

type ToolResult = { content: Array<{ type: 'text'; text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

/**
 * What a caller gets for a run that has ended. A role's JSON answer is the first text, alone (the MCP spec
 * asks for the serialized JSON as text beside `structuredContent`, which must be an object), its diffs after.
 */
function ended(engine: ServedTeam, root: TaskSnapshot): Answer {
  const structured = structuredAnswer(engine.roles, root);
  if (!structured) return describeRun(engine, root);
  const value = structured.value;
  const object =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? { structured: value as Record<string, unknown> } : {};
  return { texts: [root.output ?? '', ...proposedDiffs(engine, root.id)], ...object };
}

async function answer(work: () => Promise<Answer>): Promise<ToolResult> {
  try {
    const result = await work();
    if (typeof result === 'string') return { content: [{ type: 'text', text: result }] };
    return {
      content: result.texts.map((text) => ({ type: 'text' as const, text })),
      ...(result.structured ? { structuredContent: result.structured } : {}),
    };
  } catch (error) {
    return { content: [{ type: 'text', text: errorMessage(error) }], isError: true };
  }
}
