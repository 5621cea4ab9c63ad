/** The grants of every capability for one task, gathered in the list's order and released together. */
import type { StopCondition } from '../agent/stop-conditions.js';
import type { Tool } from '../agent/tool.js';
import type { AgentRunOptions, FinishedToolCall, ToolCallRequest } from '../agent/types.js';
import type { Capability, CapabilityGrant, CapabilityTask } from './capability.js';

/** The points of a turn every grant may join: here each is all the grants' together (see `gatherGrants`). */
type TurnPoints = 'reviewToolCalls' | 'afterToolCalls' | 'reviewUserPrompt' | 'beforeCompaction';

/**
 * All of a task's grants as one: reviewers in the list's order (each sees what the ones before let
 * through), notices joined, the stop conditions in the list's order (the first that holds wins), and a
 * chat's next message already reviewed like the prompt (a refused one is asked for again).
 */
export interface TaskGrants extends Pick<CapabilityGrant, TurnPoints> {
  tools: Tool[];
  /** Every grant's stop conditions, in the list's order. */
  stopWhen: StopCondition[];
  /** Each grant's instructions, in the list's order. */
  instructions: string[];
  notices: string[];
  /** Every grant's notices for the agent's next turn, in the list's order. */
  takeNotices(): string[];
  /** Releases every grant (each once), whatever the others do. */
  release(): Promise<void>;
}

/**
 * Asks each capability in turn; when one throws, the grants already made are released before it rethrows.
 * A capability that answers at once is not awaited: most do, and a wait per capability cost every task a
 * dozen promise turns (B1 in docs/performance.md). The order of the asks and of the grants is the same.
 */
export async function gatherGrants(capabilities: readonly Capability[], task: CapabilityTask): Promise<TaskGrants> {
  const grants: CapabilityGrant[] = [];
  // Most grants hold nothing to release: then releasing costs no promise per grant (B1).
  const release = async () => {
    const releasing = grants.filter((grant) => grant.release !== undefined);
    if (releasing.length > 0) await Promise.allSettled(releasing.map((grant) => grant.release?.()));
  };
  try {
    for (const capability of capabilities) {
      const answer = capability.grant(task);
      const grant = isPromiseLike(answer) ? await answer : answer;
      if (grant) grants.push(grant);
    }
  } catch (error) {
    await release();
    throw error;
  }
  return joinedGrants(grants, task, release);
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

/** The grants as one (see `TaskGrants`), each list gathered in one pass over them. */
function joinedGrants(grants: readonly CapabilityGrant[], task: CapabilityTask, release: () => Promise<void>): TaskGrants {
  const tools: Tool[] = [];
  const instructions: string[] = [];
  const notices: string[] = [];
  const conditions: StopCondition[] = [];
  const reviewers: Reviewer[] = [];
  const afterToolCalls: Array<NonNullable<CapabilityGrant['afterToolCalls']>> = [];
  const compactionWatchers: Array<NonNullable<CapabilityGrant['beforeCompaction']>> = [];
  const noticeTakers: CapabilityGrant[] = [];
  for (const grant of grants) {
    if (grant.tools) tools.push(...grant.tools);
    if (grant.instructions) instructions.push(grant.instructions);
    if (grant.notices) notices.push(...grant.notices);
    if (grant.stopWhen) conditions.push(...grant.stopWhen);
    if (grant.reviewToolCalls) reviewers.push(grant.reviewToolCalls);
    if (grant.afterToolCalls) afterToolCalls.push(grant.afterToolCalls);
    if (grant.beforeCompaction) compactionWatchers.push(grant.beforeCompaction);
    if (grant.takeNotices) noticeTakers.push(grant);
  }
  const reviewUserPrompt = promptReview(grants);
  const stopWhen = conditions.map((condition) => reviewedReplies(condition, reviewUserPrompt, task.context.signal));
  return {
    tools,
    instructions,
    notices,
    takeNotices: () => (noticeTakers.length === 0 ? [] : noticeTakers.flatMap((grant) => grant.takeNotices?.() ?? [])),
    ...(reviewers.length > 0
      ? { reviewToolCalls: (calls: readonly ToolCallRequest[], signal: AbortSignal) => reviewInTurn(reviewers, calls, signal) }
      : {}),
    stopWhen,
    ...(reviewUserPrompt ? { reviewUserPrompt } : {}),
    ...(afterToolCalls.length > 0
      ? {
          afterToolCalls: async (calls: readonly FinishedToolCall[], signal: AbortSignal) => {
            const notices: string[] = [];
            for (const after of afterToolCalls) notices.push(...(await after(calls, signal)));
            return notices;
          },
        }
      : {}),
    ...(compactionWatchers.length > 0
      ? {
          beforeCompaction: async (trigger: Parameters<NonNullable<CapabilityGrant['beforeCompaction']>>[0], signal: AbortSignal) => {
            for (const watcher of compactionWatchers) await watcher(trigger, signal);
          },
        }
      : {}),
    release,
  };
}

type PromptReviewer = NonNullable<CapabilityGrant['reviewUserPrompt']>;

function promptReview(grants: readonly CapabilityGrant[]): PromptReviewer | undefined {
  const reviews = grants.flatMap((grant) => (grant.reviewUserPrompt ? [grant.reviewUserPrompt.bind(grant)] : []));
  if (reviews.length === 0) return undefined;
  return async (prompt, signal) => {
    const context: string[] = [];
    for (const review of reviews) {
      const verdict = await review(prompt, signal);
      context.push(...verdict.context);
      if (verdict.refused !== undefined) return { refused: verdict.refused, context };
    }
    return { context };
  };
}

/** A chat's replies go through the prompt's review too: a refused one is not given to the agent, and the user is asked again. */
function reviewedReplies(condition: StopCondition, review: PromptReviewer | undefined, signal: AbortSignal): StopCondition {
  if (!condition.waitsForUser || !review) return condition;
  return {
    ...condition,
    check: async (step) => {
      for (;;) {
        const decision = await condition.check(step);
        if (!decision || !('reply' in decision)) return decision;
        const verdict = await review(decision.reply, signal);
        if (verdict.refused === undefined) return { reply: withContext(decision.reply, verdict.context) };
      }
    },
  };
}

/** The user's text with what a review added, marked as not the user's. */
export function withContext(prompt: string, context: readonly string[]): string {
  return context.length === 0 ? prompt : `${prompt}\n\n${context.map((text) => `[Context added by a hook]\n${text}`).join('\n\n')}`;
}

type Reviewer = NonNullable<AgentRunOptions['reviewToolCalls']>;

/** Every reviewer sees the calls the ones before it let through; their refusals add up. */
async function reviewInTurn(
  reviewers: readonly Reviewer[],
  calls: readonly ToolCallRequest[],
  signal: AbortSignal,
): Promise<ReadonlyMap<string, string>> {
  const refused = new Map<string, string>();
  for (const reviewer of reviewers) {
    const open = calls.filter((call) => !refused.has(call.toolCallId));
    for (const [id, text] of await reviewer(open, signal)) refused.set(id, text);
  }
  return refused;
}
