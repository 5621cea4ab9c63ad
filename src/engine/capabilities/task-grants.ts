/** The grants of every capability for one task, gathered in the list's order and released together. */
import type { Tool } from '../agent/tool.js';
import type { AgentRunOptions, ToolCallRequest } from '../agent/types.js';
import type { Capability, CapabilityGrant, CapabilityTask } from './capability.js';

export interface TaskGrants {
  tools: Tool[];
  /** Each grant's instructions, in the list's order. */
  instructions: string[];
  notices: string[];
  /** Every grant's notices for the agent's next turn, in the list's order. */
  takeNotices(): string[];
  reviewToolCalls?: AgentRunOptions['reviewToolCalls'];
  nextUserMessage?: AgentRunOptions['nextUserMessage'];
  /** Releases every grant (each once), whatever the others do. */
  release(): Promise<void>;
}

/** Asks each capability in turn; when one throws, the grants already made are released before it rethrows. */
export async function gatherGrants(capabilities: readonly Capability[], task: CapabilityTask): Promise<TaskGrants> {
  const grants: CapabilityGrant[] = [];
  const release = async () => {
    await Promise.allSettled(grants.map((grant) => grant.release?.()));
  };
  try {
    for (const capability of capabilities) {
      const grant = await capability.grant(task);
      if (grant) grants.push(grant);
    }
  } catch (error) {
    await release();
    throw error;
  }
  const reviewers = grants.flatMap((grant) => (grant.reviewToolCalls ? [grant.reviewToolCalls] : []));
  const nextUserMessage = grants.find((grant) => grant.nextUserMessage)?.nextUserMessage;
  return {
    tools: grants.flatMap((grant) => grant.tools ?? []),
    instructions: grants.flatMap((grant) => (grant.instructions ? [grant.instructions] : [])),
    notices: grants.flatMap((grant) => grant.notices ?? []),
    takeNotices: () => grants.flatMap((grant) => grant.takeNotices?.() ?? []),
    ...(reviewers.length > 0 ? { reviewToolCalls: (calls: readonly ToolCallRequest[], signal: AbortSignal) => reviewInTurn(reviewers, calls, signal) } : {}),
    ...(nextUserMessage ? { nextUserMessage } : {}),
    release,
  };
}

type Reviewer = NonNullable<AgentRunOptions['reviewToolCalls']>;

/** Every reviewer sees the calls the ones before it let through; their refusals add up. */
async function reviewInTurn(reviewers: readonly Reviewer[], calls: readonly ToolCallRequest[], signal: AbortSignal): Promise<ReadonlyMap<string, string>> {
  const refused = new Map<string, string>();
  for (const reviewer of reviewers) {
    const open = calls.filter((call) => !refused.has(call.toolCallId));
    for (const [id, text] of await reviewer(open, signal)) refused.set(id, text);
  }
  return refused;
}
