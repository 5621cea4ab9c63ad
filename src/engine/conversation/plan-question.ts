/**
 * Putting a plan to the user before any subagent starts (`agentTeam.approvePlan`, `--approve-plan`). The
 * question goes through the host's user channel like an agent's question (the CLI's stdin, VS Code's
 * Answer box, a server's input-required state), as kind `plan`; the answer is free text: approve, stop, or
 * the changes the user wants. An empty answer asks again; no answer at all (nobody is there) is `undefined`.
 */
import type { UserChannel } from './user-channel.js';
import type { TaskWorkContext } from '../tasks/work.js';
import { type TodoItem, todoLines } from '../tasks/todo-item.js';

export type PlanVerdict = { kind: 'approve' } | { kind: 'stop' } | { kind: 'edit'; changes: string };

/** What the user is told they may answer; hosts show it with the plan. */
export const planAnswerHelp =
  'Answer "approve" to start, "stop" to end the run with nothing started, or write the changes you want (they go back to whoever made the plan, who then asks again).';

const approvals = /^(?:a|approve[ds]?|y|yes|ok|okay|go|start|lgtm)[.!]?$/i;
const refusals = /^(?:s|stop|n|no|cancel|reject(?:ed)?|abort)[.!]?$/i;

/** The user's answer read as a verdict; undefined for an empty one (asked again). */
export function readPlanAnswer(answer: string): PlanVerdict | undefined {
  const text = answer.trim();
  if (text === '') return undefined;
  if (approvals.test(text)) return { kind: 'approve' };
  if (refusals.test(text)) return { kind: 'stop' };
  return { kind: 'edit', changes: text };
}

/** How every plan question begins: views find the question the task waits on by it (the transcript's notice). */
export const planQuestionLead = 'Approve this plan before any subagent starts?';

/** The question's text: the plan, then what the user may answer. */
export function planQuestionText(plan: string): string {
  return `${planQuestionLead}\n\n${plan}\n\n${planAnswerHelp}`;
}

/** True for a transcript notice that puts a plan to the user. */
export function isPlanQuestion(text: string): boolean {
  return text.startsWith(planQuestionLead);
}

/** A todo list as a plan's text. */
export function todoPlanText(todos: readonly TodoItem[]): string {
  return todoLines(todos).join('\n');
}

/** Asks until the user gives a verdict; undefined when nobody can answer (no channel, input closed). */
export async function askPlanApproval(
  channel: UserChannel | undefined,
  context: TaskWorkContext,
  asker: { role: string },
  plan: string,
): Promise<PlanVerdict | undefined> {
  if (!channel) return undefined;
  const text = planQuestionText(plan);
  // In the transcript too: the detail view and the trace show what the user was asked.
  context.appendTranscript({ type: 'notice', text });
  for (;;) {
    const answer = await context.waitForUser(() =>
      channel.ask({ taskId: context.taskId, role: asker.role, kind: 'plan', text }, context.signal),
    );
    if (answer === undefined) return undefined;
    const verdict = readPlanAnswer(answer);
    if (verdict) return verdict;
  }
}

/** Why a run with plan approval on stops when nobody can answer: a failure that says what to do. */
export function nobodyToApprove(howToAnswer: string | undefined): string {
  return `Plan approval is on, and nobody answered the plan question${howToAnswer ? ` (${howToAnswer})` : ''}. No subagent was started.`;
}
