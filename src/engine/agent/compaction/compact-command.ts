/**
 * `/compact` from the user, in a conversation: as a follow-up's message (the conversation it ends is
 * compacted, nothing else happens) or as a chat's next message (compacted, then the next one is awaited).
 */
import type { ModelMessage } from '../../model/types.js';

/** `/compact` or `/compact <what to focus on>`: the focus text ('' for none); undefined for any other message. */
export function compactCommand(text: string): string | undefined {
  const match = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim());
  return match ? (match[1] ?? '').trim() : undefined;
}

/**
 * When the conversation ends with the user's `/compact` (nothing else in that message), removes that
 * message and returns its focus ('' for none); otherwise undefined, the conversation untouched.
 */
export function takeTrailingCompact(messages: ModelMessage[]): string | undefined {
  const last = messages.at(-1);
  if (messages.length < 2 || last?.role !== 'user' || last.content.some((part) => part.type !== 'text')) return undefined;
  const focus = compactCommand(last.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n'));
  if (focus !== undefined) messages.pop();
  return focus;
}

/** What the user is told of an on-demand compaction. */
export function compactionAnswer(
  outcome: { compacted: true; beforeTokens: number; afterTokens: number } | { compacted: false; reason: string },
): string {
  return outcome.compacted ? `compacted: ${outcome.beforeTokens} → ${outcome.afterTokens} tokens` : `Not compacted: ${outcome.reason}.`;
}
