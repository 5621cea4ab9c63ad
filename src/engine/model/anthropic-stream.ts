import type Anthropic from '@anthropic-ai/sdk';
import { fromAnthropicStopReason } from './anthropic-request.js';
import { parseToolInput } from './tool-input.js';
import type { ModelStreamEvent, Usage } from './types.js';

interface ToolUseInProgress {
  id: string;
  name: string;
  /** The `input_json_delta` pieces so far. */
  json: string;
  /** The input given whole at block start: used only when no deltas follow (some proxies do that). */
  startInput: unknown;
}

/**
 * Turns the Messages API's raw stream events into neutral ones: text deltas as they come, one `tool-call`
 * per finished `tool_use` block (its input assembled from `input_json_delta` pieces), then `usage` and
 * `finish` once the message stops. Thinking and server-tool blocks are ignored.
 */
export class AnthropicStreamReader {
  private readonly toolUses = new Map<number, ToolUseInProgress>();
  private readonly usageCounts = { input: 0, cacheCreation: 0, cacheRead: 0, output: 0 };
  private stopReason: string | null | undefined;
  private finished = false;

  /** True once the stream said how the message ended; a stream that ends before this was cut. */
  get complete(): boolean {
    return this.stopReason !== undefined && this.stopReason !== null;
  }

  /** The neutral events one raw event produces, in order. */
  accept(event: Anthropic.RawMessageStreamEvent): ModelStreamEvent[] {
    switch (event.type) {
      case 'message_start':
        this.readUsage(event.message.usage);
        return [];
      case 'content_block_start':
        if (event.content_block.type === 'tool_use') {
          const block = event.content_block;
          this.toolUses.set(event.index, { id: block.id, name: block.name, json: '', startInput: block.input });
        } else if (event.content_block.type === 'text' && event.content_block.text !== '') {
          return [{ type: 'text-delta', text: event.content_block.text }];
        }
        return [];
      case 'content_block_delta':
        if (event.delta.type === 'text_delta') return event.delta.text === '' ? [] : [{ type: 'text-delta', text: event.delta.text }];
        if (event.delta.type === 'input_json_delta') {
          const toolUse = this.toolUses.get(event.index);
          if (toolUse) toolUse.json += event.delta.partial_json;
        }
        return [];
      case 'content_block_stop':
        return this.finishToolUse(event.index);
      case 'message_delta':
        this.stopReason = event.delta.stop_reason;
        this.readUsage(event.usage);
        return [];
      case 'message_stop':
        return this.end();
      default:
        return [];
    }
  }

  /** Events still owed when the stream ended without `message_stop` (after a known stop reason). */
  end(): ModelStreamEvent[] {
    if (this.finished || !this.complete) return [];
    this.finished = true;
    const leftovers = [...this.toolUses.keys()].flatMap((index) => this.finishToolUse(index));
    const counts = this.usageCounts;
    const usage: Usage = {
      inputTokens: counts.input + counts.cacheCreation + counts.cacheRead,
      outputTokens: counts.output,
      ...(counts.cacheRead > 0 ? { cachedInputTokens: counts.cacheRead } : {}),
    };
    return [...leftovers, { type: 'usage', usage }, { type: 'finish', stopReason: fromAnthropicStopReason(this.stopReason) }];
  }

  private finishToolUse(index: number): ModelStreamEvent[] {
    const toolUse = this.toolUses.get(index);
    if (!toolUse) return [];
    this.toolUses.delete(index);
    const useStartInput = toolUse.json === '' && isNonEmptyObject(toolUse.startInput);
    const rawInput = useStartInput ? JSON.stringify(toolUse.startInput) : toolUse.json;
    const parsed = parseToolInput(rawInput);
    return [
      {
        type: 'tool-call',
        toolCallId: toolUse.id,
        toolName: toolUse.name,
        input: parsed.input,
        rawInput,
        ...(parsed.inputError === undefined ? {} : { inputError: parsed.inputError }),
      },
    ];
  }

  /**
   * Input tokens are `input_tokens` plus both cache counts (the API reports them apart); the counts in
   * `message_delta` are cumulative, so a present one replaces the earlier value.
   */
  private readUsage(usage: Partial<Anthropic.MessageDeltaUsage> | undefined): void {
    if (!usage) return;
    const counts = this.usageCounts;
    if (typeof usage.input_tokens === 'number') counts.input = usage.input_tokens;
    if (typeof usage.cache_creation_input_tokens === 'number') counts.cacheCreation = usage.cache_creation_input_tokens;
    if (typeof usage.cache_read_input_tokens === 'number') counts.cacheRead = usage.cache_read_input_tokens;
    if (typeof usage.output_tokens === 'number') counts.output = usage.output_tokens;
  }
}

function isNonEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}
