/**
 * Plan approval for a planned run (`--plan` with `--approve-plan`): the root's plan is shown to the user
 * before any sub-task starts. Changes go back to a new planner call with the plan they answer, and the
 * revised plan is asked about again; stop ends the run with nothing started; nobody to answer fails it.
 */
import type { UserChannel } from '../conversation/user-channel.js';
import type { TaskWorkContext, TaskWorkResult } from '../tasks/work.js';
import { askPlanApproval, nobodyToApprove } from '../conversation/plan-question.js';

export interface PlanApprovalHost {
  /** Where the question goes. Default: none (the run fails, saying why). */
  channel?: UserChannel;
  /** How the user answers where nobody could be asked, for the failure's text. */
  howToAnswer?: string;
  /** Stops a task's tree as a user stop would; not awaited. */
  stopTask(taskId: string): void;
}

/** One proposal: the plan's text for the user, or the end of the run (the planner failed). */
export type PlanProposal<Plan> = { plan: Plan; text: string } | { ended: TaskWorkResult };

/** Proposes plans (`propose(changes)`, the user's changes to the last one) until one is approved; the run's end otherwise. */
export async function approvePlanLoop<Plan>(
  host: PlanApprovalHost,
  context: TaskWorkContext,
  propose: (changes?: { previous: string; changes: string }) => Promise<PlanProposal<Plan>>,
): Promise<{ plan: Plan } | { ended: TaskWorkResult }> {
  let proposal = await propose();
  for (;;) {
    if ('ended' in proposal) return proposal;
    const verdict = await askPlanApproval(host.channel, context, { role: 'plan' }, proposal.text);
    if (verdict === undefined) return { ended: { status: 'failed', output: '', error: nobodyToApprove(host.howToAnswer) } };
    if (verdict.kind === 'approve') {
      context.appendTranscript({ type: 'notice', text: 'The user approved the plan.' });
      return { plan: proposal.plan };
    }
    if (verdict.kind === 'stop') {
      context.appendTranscript({ type: 'notice', text: 'The user stopped the run at plan approval: no sub-task was started.' });
      host.stopTask(context.taskId);
      return { ended: { status: 'completed', output: '' } };
    }
    context.appendTranscript({ type: 'notice', text: `The user asked for changes to the plan: ${verdict.changes}` });
    proposal = await propose({ previous: proposal.text, changes: verdict.changes });
  }
}

/** The task as a planner sees it after the user asked for changes. */
export function taskWithChanges(task: string, changes: { previous: string; changes: string } | undefined): string {
  if (!changes) return task;
  return `${task}\n\nYour previous plan was:\n${changes.previous}\n\nThe user did not approve it and asks for these changes:\n${changes.changes}`;
}
