/**
 * Building blocks for scripting a `FakeChatModel`: one model turn as the parts VS Code streams, and who
 * is asking (the system instruction travels as the first user message).
 */
import {
  type FakeChatRequest,
  LanguageModelChatMessageRole,
  LanguageModelTextPart,
  LanguageModelToolCallPart,
  LanguageModelToolResultPart,
} from './fake-language-models.js';

let callCount = 0;

/** One turn: text in two parts (as a stream would split it), then the tool calls. */
export async function* chatTurn(text: string, toolCalls: Array<{ name: string; input: object }> = []): AsyncGenerator<unknown> {
  if (text !== '') {
    const middle = Math.ceil(text.length / 2);
    yield new LanguageModelTextPart(text.slice(0, middle));
    yield new LanguageModelTextPart(text.slice(middle));
  }
  for (const call of toolCalls) yield new LanguageModelToolCallPart(`call-${++callCount}`, call.name, call.input);
}

/** A stream that sends nothing until the request is cancelled, then ends (as VS Code's do). */
export function untilCancelled(request: FakeChatRequest): AsyncIterable<unknown> {
  const cancelled = new Promise<void>((resolve) => {
    if (request.token.isCancellationRequested) resolve();
    else request.token.onCancellationRequested(() => resolve());
  });
  return {
    [Symbol.asyncIterator]: () => ({ next: () => cancelled.then(() => ({ done: true as const, value: undefined })) }),
  };
}

/** The text of one message: its text parts and tool results, in order. */
export function messageText(message: FakeChatRequest['messages'][number]): string {
  return message.content
    .map((part) => {
      if (part instanceof LanguageModelTextPart) return part.value;
      if (part instanceof LanguageModelToolResultPart)
        return part.content.map((inner) => (inner instanceof LanguageModelTextPart ? inner.value : '')).join('');
      return '';
    })
    .join('');
}

/** Which agent asks, told by its instruction (the first message). */
export function agentOfChat(request: FakeChatRequest): string {
  const system = messageText(request.messages[0]!);
  if (system.includes('You are the coordinator')) return 'coordinator';
  if (system.startsWith('You are a researcher')) return 'researcher';
  if (system.startsWith('You are a code reviewer')) return 'reviewer';
  if (system.startsWith('You are a refactorer')) return 'refactorer';
  if (system.startsWith('You are the planner')) return 'planner';
  return 'unknown';
}

/** How many turns this agent has had before (assistant messages so far). */
export function priorChatTurns(request: FakeChatRequest): number {
  return request.messages.filter((message) => message.role === LanguageModelChatMessageRole.Assistant).length;
}

export function lastMessageText(request: FakeChatRequest): string {
  return messageText(request.messages.at(-1)!);
}
