/**
 * A `task` agent completes only through `CompleteTask` (seed 001: "Automatic (via complete_task)"). A
 * plain answer (a turn with no tool call) is sent back once with a reminder; a second plain answer is
 * accepted as the result, with a note in the transcript, so a model that never learns the tool still ends
 * its task rather than looping until the turn limit.
 */
import type { TaskWorkContext } from '../tasks/work.js';

/** What the agent is told when it answers a task in plain text the first time. */
export const completeTaskReminder =
  'You answered without calling a tool, but a task ends only through CompleteTask: call CompleteTask with your result (what you found or did, and what is left open). If you need the user first, ask with AskUser.';

/** The transcript's note when the second plain answer is taken as the result. */
export const plainAnswerAcceptedNote =
  'The agent answered in plain text again instead of calling CompleteTask: its answer was taken as the task’s result.';

/** The answer review of one `task`-mode agent (a stop condition): sends the first plain answer back, accepts the next. */
export function completeTaskReview(context: Pick<TaskWorkContext, 'appendTranscript'>): () => Promise<string | undefined> {
  let reminded = false;
  return async () => {
    if (!reminded) {
      reminded = true;
      return completeTaskReminder;
    }
    context.appendTranscript({ type: 'notice', text: plainAnswerAcceptedNote });
    return undefined;
  };
}
