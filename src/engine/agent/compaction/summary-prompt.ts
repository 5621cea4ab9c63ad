/**
 * The request that asks the task's own model for a summary of the older turns. The older turns go to it
 * as one text (not as a conversation), so a summary request is valid whatever the turns hold, and its size
 * is bounded: long tool results are cut first, then the oldest steps, to fit `maxCharacters`.
 */
import type { ModelMessage } from '../../model/types.js';
import type { ConversationSplit } from './conversation-split.js';

export const summarySystem = [
  "You summarise the earlier part of an AI coding agent's conversation so that the agent can go on with its task from the summary alone.",
  'Write plain text under these headings, leaving out a heading with nothing under it:',
  'Task state (what is done, what remains), Decisions (with their reasons), Files read (paths, and what in them matters),',
  'Files changed or proposed (paths, and what changed), Tools and commands run (what they showed), Open questions, Next step.',
  'Keep exact paths, names, numbers and error messages. Do not restate the task itself: it is kept verbatim. Do not invent anything.',
].join('\n');

/** What one tool result may keep in the text given to the summariser, in characters. */
export const maxResultCharacters = 2000;

export interface SummaryRequestText {
  /** The one user message of the summary request. */
  text: string;
  /** Steps left out (the oldest) to fit `maxCharacters`. */
  droppedSteps: number;
}

/** The summary request's text: the task for context, an earlier summary, the older steps, what to focus on. */
export function summaryRequestText(split: ConversationSplit, maxCharacters: number, focus?: string): SummaryRequestText {
  const taskText = split.task.map((part) => (part.type === 'text' ? part.text : `[image${part.name ? ` ${part.name}` : ''}]`)).join('\n');
  const head = [`The task (kept verbatim; for context only):\n${taskText}`];
  if (split.earlierSummary) head.push(`The summary of the steps before these (merge it into yours):\n${split.earlierSummary}`);
  const tail = [`Summarise the steps above.${focus ? ` Focus on: ${focus}` : ''}`];
  const steps = split.older.flatMap(renderMessage);
  const fixed = [...head, ...tail].join('\n\n').length + 200;
  let total = steps.reduce((sum, step) => sum + step.length + 2, 0);
  let dropped = 0;
  while (dropped < steps.length && fixed + total > maxCharacters) total -= steps[dropped++]!.length + 2;
  const kept = steps.slice(dropped);
  const note = dropped > 0 ? [`(${dropped} earlier steps left out: they did not fit the model's window.)`] : [];
  return { text: [...head, 'The steps to summarise:', ...note, ...kept, ...tail].join('\n\n'), droppedSteps: dropped };
}

/** One message as lines the summariser reads: who said what, tool calls with their input, results cut short. */
export function renderMessage(message: ModelMessage): string[] {
  return message.content.map((part) => {
    switch (part.type) {
      case 'text':
        return `${message.role === 'assistant' ? 'Agent' : 'User or Agent Team'}: ${part.text}`;
      case 'tool-call':
        return `Agent called ${part.toolName} ${JSON.stringify(part.input ?? {})}`;
      case 'tool-result':
        return `Result of ${part.toolName}${part.isError ? ' (error)' : ''}: ${cut(part.output, maxResultCharacters)}`;
      case 'image':
        return `[image${part.name ? ` ${part.name}` : ''}]`;
    }
  });
}

function cut(text: string, maximum: number): string {
  return text.length <= maximum ? text : `${text.slice(0, maximum)}… [${text.length - maximum} more characters]`;
}
