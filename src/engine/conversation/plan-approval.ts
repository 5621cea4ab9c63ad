/**
 * Plan approval for an agent that delegates (the coordinator): its turn's first `Agent` calls wait until
 * the user has seen the plan. The plan is its todo list, or, when it delegates before writing one, the
 * subagents that turn would start: a subagent never starts unseen. Approve lets the calls through (and
 * every later one); changes refuse them with the user's words, so the agent revises its plan and asks
 * again; stop ends the run with nothing started. Nobody to answer fails the run, saying what to do.
 */
import type { AgentRunOptions, ToolCallRequest } from '../agent/types.js';
import type { UserChannel } from './user-channel.js';
import type { TaskWorkContext } from '../tasks/work.js';
import { type TodoItem, todoListSchemas } from '../tasks/todo-item.js';
import { todoWriteToolName } from './todo-write-tool.js';
import { askPlanApproval, nobodyToApprove, todoPlanText } from './plan-question.js';

const delegationTool = 'Agent';

export interface PlanApprovalParts {
  context: TaskWorkContext;
  role: string;
  channel?: UserChannel;
  /** How the user answers where nobody was asked (the CLI's stdin), for the failure's text. */
  howToAnswer?: string;
  /** The agent's todo list as it last wrote it. */
  todos(): readonly TodoItem[] | undefined;
  /** Stops the agent's task and its tree (a user stop): called on "stop", without waiting for it. */
  stopRun(): void;
}

export function planApprovalReview(parts: PlanApprovalParts): NonNullable<AgentRunOptions['reviewToolCalls']> {
  let approved = false;
  return async (calls) => {
    const delegations = calls.filter((call) => call.toolName === delegationTool);
    if (approved || delegations.length === 0) return new Map();
    // A list written in this very turn (its calls have not run yet) is the plan the user should see.
    const verdict = await askPlanApproval(
      parts.channel,
      parts.context,
      { role: parts.role },
      planOf(writtenNow(calls) ?? parts.todos(), delegations),
    );
    if (verdict === undefined) throw new Error(nobodyToApprove(parts.howToAnswer));
    if (verdict.kind === 'approve') {
      approved = true;
      parts.context.appendTranscript({ type: 'notice', text: 'The user approved the plan.' });
      return new Map();
    }
    if (verdict.kind === 'stop') {
      parts.context.appendTranscript({ type: 'notice', text: 'The user stopped the run at plan approval: no subagent was started.' });
      parts.stopRun();
      return refuse(delegations, 'The user stopped the run instead of approving the plan. No subagent was started.');
    }
    parts.context.appendTranscript({ type: 'notice', text: `The user asked for changes to the plan: ${verdict.changes}` });
    return refuse(
      delegations,
      `The user has not approved the plan yet and asks for changes:\n${verdict.changes}\n\nNo subagent was started. Revise your todo list with TodoWrite to answer them, then delegate again: the user sees the revised plan first.`,
    );
  };
}

/** Added to the agent's instructions while approval is on. */
export const planApprovalInstruction =
  '# Plan approval\nThe user approves your plan before any subagent starts. Before your first Agent call, write the plan with TodoWrite; that call then shows the plan to the user and waits. If they ask for changes, the call comes back refused with their words: revise the todo list and delegate again.';

function planOf(todos: readonly TodoItem[] | undefined, delegations: readonly ToolCallRequest[]): string {
  if (todos && todos.length > 0) return todoPlanText(todos);
  // No todo list yet: the subagents this turn would start are the plan.
  const lines = delegations.map((call) => {
    const input = (call.input ?? {}) as { subagent_type?: unknown; description?: unknown; prompt?: unknown };
    const prompt =
      typeof input.prompt === 'string' ? `: ${input.prompt.length > 300 ? `${input.prompt.slice(0, 299)}…` : input.prompt}` : '';
    return `- ${String(input.subagent_type ?? '(no role)')} — ${String(input.description ?? '(no description)')}${prompt}`;
  });
  return `(No todo list was written.) The subagents it would start now:\n${lines.join('\n')}`;
}

/** The todo list a `TodoWrite` call of this turn writes, when its input is sound. */
function writtenNow(calls: readonly ToolCallRequest[]): readonly TodoItem[] | undefined {
  const call = calls.findLast((candidate) => candidate.toolName === todoWriteToolName);
  const parsed = todoListSchemas.strict.safeParse((call?.input as { todos?: unknown } | undefined)?.todos);
  return parsed.success ? parsed.data : undefined;
}

function refuse(delegations: readonly ToolCallRequest[], text: string): ReadonlyMap<string, string> {
  return new Map(delegations.map((call) => [call.toolCallId, text]));
}
