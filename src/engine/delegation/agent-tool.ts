import * as z from 'zod';
import { chainBelow } from '../tasks/ancestor-tasks.js';
import { defineTool, type Tool } from '../agent/tool.js';
import type { DelegationScope, RosterEntry } from './delegation-scope.js';
import { formatTaskResult } from './task-result-text.js';
import { promptProblem } from '../roles/structured-result.js';

const agentInput = z.object({
  subagent_type: z.string().min(1).describe("The role to hand the task to: one of the roles listed in this tool's description."),
  description: z.string().min(1).describe('A short (3-5 word) title for the task, shown to the user.'),
  prompt: z
    .string()
    .optional()
    .describe(
      'The full task for the subagent. It sees nothing of your conversation: include every file path, goal, constraint and what to return.',
    ),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      'true: start it and continue at once; you get a notice when it ends (read it with TaskOutput). Default false: wait for its answer.',
    ),
});

/** The `Agent` tool: hands a task to a subagent of a given role (contract in docs/architecture.md). */
export function createAgentTool(scope: DelegationScope): Tool<z.infer<typeof agentInput>> {
  const tool = defineTool({
    name: 'Agent',
    description: '',
    inputSchema: agentInput,
    readOnly: false,
    // The subagent's own limits and the auto-background switch bound this call, not the tool timeout.
    timeoutMs: Infinity,
    async execute(input) {
      const roster = scope.roster();
      const role = roster.find((entry) => entry.name === input.subagent_type);
      if (!role) {
        const known = roster.map((entry) => entry.name).join(', ') || '(none)';
        throw new Error(`Unknown subagent_type "${input.subagent_type}". Known roles: ${known}.`);
      }
      if (role.toolsBeyondReach?.length) {
        throw new Error(
          `You may not hand work to "${role.name}": it can use ${role.toolsBeyondReach.join(', ')}, which you cannot, and a subagent never gets more power than the agent that starts it. Roles you may use: ${inReach(roster).join(', ') || '(none)'}.`,
        );
      }
      const talks = role.mode === 'task' || role.mode === 'chat';
      if (talks && input.run_in_background) {
        throw new Error(
          `"${role.name}" is a ${role.mode}-mode role: it may talk to the user while it works, so it runs in the foreground only. Call Agent again without run_in_background.`,
        );
      }
      // Models trained on an older one-field layout sometimes put the whole task in the description.
      const prompt = input.prompt?.trim() ? input.prompt : input.description;
      const refused = role.inputSchema ? await promptProblem(role.inputSchema, prompt) : undefined;
      if (refused !== undefined)
        throw new Error(
          `"${role.name}" takes a JSON prompt matching its input schema (in this tool's description), so the task was not started: ${refused}`,
        );
      const started = await scope.taskManager.start({
        parentId: scope.parentTaskId,
        role: role.name,
        description: input.description,
        prompt,
        ...ancestorsOf(scope),
        // A role that may talk to the user stays in the foreground: it is never moved to the background.
        mode: input.run_in_background ? 'background' : talks ? 'foreground' : 'auto',
        ...(scope.autoBackgroundMs === undefined ? {} : { autoBackgroundMs: scope.autoBackgroundMs }),
        work: scope.workFor(role.name, prompt),
      });
      const task = started.task;
      if (started.backgrounded) {
        // Kept short: this reply stays in every later request of the parent (B8 in docs/performance.md).
        if (input.run_in_background) return `Started ${task.id}.`;
        return `Still running after the foreground wait, so it moved to the background: task ${task.id} (${task.role}: "${task.description}"), status ${task.status}. You will get a notice when it ends; read its output with TaskOutput {"task_id": "${task.id}"} or stop it with TaskStop.`;
      }
      return formatTaskResult(task, { extra: scope.describeChanges?.(task.id) });
    },
  });
  // The roster can change while a run goes on (role files edited), so the description is read live.
  Object.defineProperty(tool, 'description', { get: () => describeAgentTool(scope), enumerable: true });
  return tool;
}

/** Descriptions by roster: rosters are shared while the roles stay the same, so each is described once. */
const descriptions = new WeakMap<readonly RosterEntry[], string>();

export function describeAgentTool(scope: DelegationScope): string {
  const entries = scope.roster();
  const known = descriptions.get(entries);
  if (known !== undefined) return known;
  const description = describeRoster(entries);
  descriptions.set(entries, description);
  return description;
}

function describeRoster(entries: readonly RosterEntry[]): string {
  const roster = entries
    .filter((entry) => !entry.toolsBeyondReach?.length)
    .map(
      (entry) =>
        `- ${entry.name}: ${entry.description}${entry.inputSchema ? ` Its prompt must be JSON matching this schema: ${JSON.stringify(entry.inputSchema)}` : ''}`,
    )
    .join('\n');
  const beyond = entries
    .filter((entry) => entry.toolsBeyondReach?.length)
    .map((entry) => `${entry.name} (${entry.toolsBeyondReach?.join(', ')})`);
  const beyondNote = beyond.length > 0 ? `\nNot available to you, since they can use tools you cannot: ${beyond.join('; ')}.\n` : '';
  return `Hand a self-contained task to a subagent, which works on it with its own tools and context and returns only its final answer.

Available subagent types:
${roster || '- (none)'}
${beyondNote}
Use it for work that needs many steps or files, and run independent tasks in parallel by starting them with run_in_background: true in the same turn. Wait (the default) when you need the answer before you can go on. The subagent starts with no memory of this conversation, so the prompt must stand on its own: the goal, the relevant file paths, what is already known, constraints, and exactly what to return. Subagents never write files: edits they make are proposals the user reviews.`;
}

/**
 * The tasks a subagent of a subagent is part of: its parent's and every one above, the user's request
 * first. The coordinator's own subagents (a follow-up's too) get none: the coordinator holds the user's
 * whole conversation and writes each prompt to stand alone, while a subagent below knows only its task.
 */
function ancestorsOf(scope: DelegationScope): { ancestorTasks?: string[] } {
  const parent = scope.taskManager.placeOf(scope.parentTaskId);
  if (!parent || parent.parentId === null || parent.followUp) return {};
  // A parent the root started has no chain of its own: the root's task (the user's request) heads it.
  const above = parent.ancestorTasks ?? chainBelow([], scope.taskManager.placeOf(parent.parentId)?.prompt ?? '');
  return { ancestorTasks: chainBelow(above, parent.prompt) };
}

function inReach(roster: RosterEntry[]): string[] {
  return roster.filter((entry) => !entry.toolsBeyondReach?.length).map((entry) => entry.name);
}
