/**
 * A fan-out wider than the user expects asks first: when one model turn starts more subagents than
 * `confirmAbove`, the host asks the user (the extension, a modal), and a "no", or a host that cannot ask
 * (the CLI without `--yes`), refuses every one of that turn's `Agent` calls with a result the agent can
 * act on. Nothing is started half-way.
 */
import type { AgentRunOptions } from '../agent/types.js';

export interface FanOutRequest {
  /** The task whose turn asks. */
  taskId: string;
  role: string;
  count: number;
  /** Each subagent's `description`, as the model wrote them. */
  descriptions: string[];
}

export interface FanOutPolicy {
  /** More subagents than this in one turn need the user's yes. */
  confirmAbove: number;
  /** Asks the user; absent: a wider fan-out is refused (nobody can say yes). */
  confirm?: (request: FanOutRequest, signal: AbortSignal) => Promise<boolean>;
  /** How a user allows it where nobody is asked, for the refusal text (the CLI: "pass --yes"). */
  howToAllow?: string;
}

const delegationTool = 'Agent';

export function fanOutReview(
  policy: FanOutPolicy,
  task: { taskId: string; role: string },
): NonNullable<AgentRunOptions['reviewToolCalls']> {
  return async (calls, signal) => {
    const agentCalls = calls.filter((call) => call.toolName === delegationTool);
    if (agentCalls.length <= policy.confirmAbove) return new Map();
    const descriptions = agentCalls.map((call) =>
      String((call.input as { description?: unknown } | undefined)?.description ?? '(no description)'),
    );
    const request = { ...task, count: agentCalls.length, descriptions };
    const allowed = policy.confirm ? await policy.confirm(request, signal).catch(() => false) : false;
    if (allowed) return new Map();
    const limit = policy.confirmAbove;
    const text = policy.confirm
      ? `The user declined starting ${agentCalls.length} subagents in one turn (more than ${limit} need their confirmation). None of them was started: start at most ${limit} at a time, or do the work with fewer subagents.`
      : `Starting ${agentCalls.length} subagents in one turn needs the user's confirmation (more than ${limit}), and nobody can be asked here${policy.howToAllow ? ` (${policy.howToAllow})` : ''}. None of them was started: start at most ${limit} at a time.`;
    return new Map(agentCalls.map((call) => [call.toolCallId, text]));
  };
}
