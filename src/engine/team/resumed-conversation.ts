/**
 * The conversation an interrupted agent goes on with: the one recorded at its last turn boundary, its
 * last turn's tool calls answered, and a note that it was interrupted. A call whose result was recorded
 * gets that result (it is never run again: it may have written, sent or deleted something); a call that
 * was cut before its result was recorded is answered "not run", since nobody can say how far it got; a
 * foreground subagent that is resumed too answers with its own result when it ends.
 */
import { appendUserParts } from '../agent/messages.js';
import type { ModelMessage, ToolCallPart, ToolResultPart } from '../model/types.js';

/** A result recorded in the run log after the conversation was (a tool that finished before the end). */
export interface RecordedResult {
  output: string;
  isError: boolean;
}

export const resumedNotice =
  '[Agent Team notice] This run was interrupted (the editor closed or the process ended) and has now been resumed. Go on from where you were; nothing you did before is lost.';

export const notRunText =
  'Not run to the end: the run was interrupted while this call was under way, and its result was never recorded. Check whether it took effect before calling it again.';

/** The tool calls of the conversation's last message that have no result yet. */
export function unansweredCalls(conversation: readonly ModelMessage[]): ToolCallPart[] {
  const last = conversation.at(-1);
  if (last?.role !== 'assistant') return [];
  return last.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

/**
 * `answers` gives each unanswered call's result, in call order: a recorded one, a subagent's, or
 * undefined for "not run".
 */
export function resumedConversation(conversation: readonly ModelMessage[], answers: ReadonlyMap<string, RecordedResult>): ModelMessage[] {
  const messages = conversation.map((message) => ({ ...message, content: [...message.content] }) as ModelMessage);
  const results: ToolResultPart[] = unansweredCalls(conversation).map((call) => {
    const answer = answers.get(call.toolCallId);
    return {
      type: 'tool-result',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: answer?.output ?? notRunText,
      isError: answer?.isError ?? true,
    };
  });
  appendUserParts(messages, [...results, { type: 'text', text: resumedNotice }]);
  return messages;
}
