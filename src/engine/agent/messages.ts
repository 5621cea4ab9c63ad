import type { ImagePart, ModelMessage, TextPart, ToolCallPart, ToolResultPart } from '../model/types.js';
import type { ToolCallEvent, ToolCallResult } from './tool-execution.js';

type UserPart = TextPart | ImagePart | ToolResultPart;

/**
 * The conversation the first turn sends. A string prompt becomes one user message; a given conversation is
 * copied, with consecutive user messages merged (Anthropic rejects two user messages in a row).
 */
export function initialMessages(prompt: string | readonly ModelMessage[]): ModelMessage[] {
  if (typeof prompt === 'string') return [{ role: 'user', content: [{ type: 'text', text: prompt }] }];
  const messages: ModelMessage[] = [];
  for (const message of prompt) {
    if (message.role === 'user') appendUserParts(messages, message.content);
    else messages.push({ role: 'assistant', content: [...message.content] });
  }
  return messages;
}

/** True when the prompt gives the model nothing to answer. */
export function isEmptyPrompt(prompt: string | readonly ModelMessage[]): boolean {
  return typeof prompt === 'string' ? prompt.trim() === '' : prompt.length === 0;
}

/**
 * Adds user content: merged into the last message when that is a user message, else as a new one.
 * Tool results go before text, as Anthropic requires them first in a user message.
 */
export function appendUserParts(messages: ModelMessage[], parts: readonly UserPart[]): void {
  if (parts.length === 0) return;
  const last = messages.at(-1);
  const previous = last?.role === 'user' ? last.content : [];
  const merged = [...previous, ...parts];
  const content = [...merged.filter((part) => part.type === 'tool-result'), ...merged.filter((part) => part.type !== 'tool-result')];
  const message: ModelMessage = { role: 'user', content };
  if (last?.role === 'user') messages[messages.length - 1] = message;
  else messages.push(message);
}

/**
 * The assistant message of one turn: its whole text, then its tool calls. Nothing for an empty turn, as
 * providers reject empty content. Input that was not valid JSON is recorded as `{}` so that the message
 * replays to any provider (Anthropic requires an object); the error result tells the model what happened.
 */
export function assistantMessage(text: string, toolCalls: readonly ToolCallEvent[]): ModelMessage | undefined {
  const content: Array<TextPart | ToolCallPart> = [];
  if (text !== '') content.push({ type: 'text', text });
  for (const call of toolCalls) {
    content.push({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input ?? {} });
  }
  return content.length > 0 ? { role: 'assistant', content } : undefined;
}

export function toolResultPart(result: ToolCallResult): ToolResultPart {
  return { type: 'tool-result', toolCallId: result.toolCallId, toolName: result.toolName, output: result.output, isError: result.isError };
}

/** A notice as the model reads it: marked, so the model doesn't take it for the user's words. */
export function noticePart(notice: string): TextPart {
  return { type: 'text', text: `[Agent Team notice] ${notice}` };
}
