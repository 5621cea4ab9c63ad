import type OpenAI from 'openai';
import { fromOpenAIFinishReason } from './openai-request.js';
import { parseToolInput } from './tool-input.js';
import type { ModelStreamEvent, Usage } from './types.js';

interface ToolCallInProgress {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Turns Chat Completions chunks into neutral events: text deltas as they come; tool calls assembled from
 * their deltas by `index` and emitted, in index order, once the stream ends; then `usage` (when the server
 * reported it) and `finish`. Only the first choice is read: we never ask for more.
 */
export class OpenAIStreamReader {
  private readonly toolCalls = new Map<number, ToolCallInProgress>();
  private finishReason: string | null | undefined;
  private usage: Usage | undefined;

  /** True once a choice said why it finished; a stream that ends before this was cut. */
  get complete(): boolean {
    return this.finishReason !== undefined && this.finishReason !== null;
  }

  accept(chunk: OpenAI.Chat.ChatCompletionChunk): ModelStreamEvent[] {
    // With `include_usage` the usage arrives in a last chunk with no choices; some servers put it earlier.
    if (chunk.usage) {
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
      this.usage = {
        inputTokens: chunk.usage.prompt_tokens ?? 0,
        outputTokens: chunk.usage.completion_tokens ?? 0,
        ...(cached > 0 ? { cachedInputTokens: cached } : {}),
      };
    }
    const choice = chunk.choices?.[0];
    if (!choice) return [];
    for (const [position, delta] of (choice.delta?.tool_calls ?? []).entries()) this.acceptToolCallDelta(delta, position);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const text = choice.delta?.content;
    return typeof text === 'string' && text !== '' ? [{ type: 'text-delta', text }] : [];
  }

  end(): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = [];
    const ordered = [...this.toolCalls.entries()].sort(([a], [b]) => a - b);
    for (const [index, toolCall] of ordered) {
      const parsed = parseToolInput(toolCall.arguments);
      events.push({
        type: 'tool-call',
        toolCallId: toolCall.id === '' ? `call_${index}` : toolCall.id,
        toolName: toolCall.name,
        input: parsed.input,
        rawInput: toolCall.arguments,
        ...(parsed.inputError === undefined ? {} : { inputError: parsed.inputError }),
      });
    }
    this.toolCalls.clear();
    if (this.usage) events.push({ type: 'usage', usage: this.usage });
    // Some compatible servers say `stop` even after calling tools; the calls are what matters.
    const stopReason =
      events.some((event) => event.type === 'tool-call') && this.finishReason === 'stop'
        ? 'tool-use'
        : fromOpenAIFinishReason(this.finishReason);
    events.push({ type: 'finish', stopReason });
    return events;
  }

  /**
   * The first delta of a call carries its id and name, later ones only argument text. A server that leaves
   * out `index` (a few compatible ones do) gets the delta's position instead.
   */
  private acceptToolCallDelta(delta: OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall, position: number): void {
    const index = typeof delta.index === 'number' ? delta.index : position;
    let toolCall = this.toolCalls.get(index);
    if (!toolCall) {
      toolCall = { id: '', name: '', arguments: '' };
      this.toolCalls.set(index, toolCall);
    }
    if (delta.id) toolCall.id = delta.id;
    // The name comes whole in the first delta; a few servers repeat it in later ones.
    if (delta.function?.name && toolCall.name === '') toolCall.name = delta.function.name;
    if (delta.function?.arguments) toolCall.arguments += delta.function.arguments;
  }
}
