/** The kinds of stop condition: the loop's own (a tool that ends the run, the turn limit) and the ones capabilities grant. */
import { compactCommand } from './compaction/compact-command.js';
import type { StopCondition } from './stop-conditions.js';

/** A call to a tool that ends the run (`Tool.endsRun`) succeeded: the run completes with that tool's output. */
export function toolEndedRun(): StopCondition {
  return {
    name: 'tool-ended-run',
    on: 'tool-calls',
    check: (step) => {
      const ending = step.toolCalls.find((result) => result.ending !== undefined)?.ending;
      return ending
        ? { stop: { status: 'completed', output: ending.output, endedBy: { toolName: ending.toolName, input: ending.input } } }
        : undefined;
    },
  };
}

/** The run would start turn `maxTurns + 1`: it ends with what it has, and says so. */
export function turnLimit(maxTurns: number): StopCondition {
  const error = `Reached the limit of ${maxTurns} model turns before the agent finished.`;
  return {
    name: 'max-turns',
    on: 'going-on',
    check: (step) => (step.turn >= maxTurns ? { stop: { status: 'max-turns', error, notice: error } } : undefined),
  };
}

/**
 * Asked after each step's tool calls: a string ends the run now, completed with what it has, the string
 * told to the user (a hook that said `continue: false`).
 */
export function endWhen(name: string, requested: () => string | undefined): StopCondition {
  return {
    name,
    on: 'tool-calls',
    check: () => {
      const notice = requested();
      return notice === undefined ? undefined : { stop: { status: 'completed', notice } };
    },
  };
}

/**
 * Sees an answer without tool calls before it stands: a string sends the agent back to work with it as a
 * notice (a Stop hook that did not let it finish); undefined lets the answer stand.
 */
export function reviewAnswer(name: string, review: (answer: string, signal: AbortSignal) => Promise<string | undefined>): StopCondition {
  return {
    name,
    on: 'answer',
    check: async (step) => {
      const notice = await review(step.answer, step.signal);
      return notice === undefined ? undefined : { resume: notice };
    },
  };
}

/**
 * A chat: after an answer without tool calls, the user's next message (undefined: the chat is over and the
 * answer stands). A message that is only `/compact` compacts the conversation, and the user is asked again.
 */
export function userReplies(name: string, next: (answer: string) => Promise<string | undefined>): StopCondition {
  return {
    name,
    on: 'answer',
    waitsForUser: true,
    check: async (step) => {
      let message = await next(step.answer);
      for (let focus = focusOf(message, step.compact); focus !== undefined && step.compact; focus = focusOf(message, step.compact)) {
        await step.compact(focus);
        message = await next(step.answer);
      }
      return message === undefined ? undefined : { reply: message };
    },
  };
}

function focusOf(message: string | undefined, compact: ((focus: string) => Promise<void>) | undefined): string | undefined {
  return message === undefined || !compact ? undefined : compactCommand(message);
}
