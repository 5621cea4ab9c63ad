/**
 * Which parts of a conversation a compaction keeps and which it summarises. Kept verbatim: the first user
 * message (the task as given, with its ancestor tasks and what hooks added; an earlier summary in it is
 * summarised again) and the last steps (the last `keepTurns` answers of the model and what followed each).
 * Everything between is summarised. The system prompt (the coordinator's roster, the instruction files)
 * never enters the conversation, so a compaction cannot drop it.
 */
import type { ImagePart, ModelMessage, TextPart } from '../../model/types.js';

/** How a summary starts in the first user message: it tells a compacted conversation's summary from the task. */
export const summaryMarker = '[Agent Team: summary of the earlier conversation, which was compacted]';

/** The last steps kept verbatim by default: the model's last two answers and what followed them. */
export const defaultKeepTurns = 2;

export interface ConversationSplit {
  /** The first user message's own parts: the task. Never summarised. */
  task: Array<TextPart | ImagePart>;
  /** The summary of an earlier compaction, if the conversation had one. */
  earlierSummary: string | undefined;
  /** The messages to summarise. */
  older: ModelMessage[];
  /** The last steps, kept as they are; starts with the model's answer (or is empty). */
  recent: ModelMessage[];
}

/** Splits `messages`, keeping the last `keepTurns` answers; `keepTurns` 0 summarises every step. */
export function splitConversation(messages: readonly ModelMessage[], keepTurns: number = defaultKeepTurns): ConversationSplit {
  const first = messages[0];
  const task: Array<TextPart | ImagePart> = [];
  let earlierSummary: string | undefined;
  if (first?.role === 'user') {
    for (const part of first.content) {
      if (part.type === 'text' && part.text.startsWith(summaryMarker)) earlierSummary = part.text.slice(summaryMarker.length).trim();
      else if (part.type !== 'tool-result') task.push(part);
    }
  }
  const start = first?.role === 'user' ? 1 : 0;
  let recentStart = messages.length;
  let answers = 0;
  for (let index = messages.length - 1; index >= start && answers < keepTurns; index--) {
    if (messages[index]!.role === 'assistant') {
      answers++;
      recentStart = index;
    }
  }
  return { task, earlierSummary, older: messages.slice(start, recentStart), recent: messages.slice(recentStart) };
}

/** The conversation after a compaction: the task and the summary in the first message, then the last steps. */
export function compactedConversation(split: ConversationSplit, summary: string): ModelMessage[] {
  const summaryPart: TextPart = { type: 'text', text: `${summaryMarker}\n${summary}` };
  const first: ModelMessage = { role: 'user', content: [...split.task, summaryPart] };
  return [first, ...split.recent];
}
