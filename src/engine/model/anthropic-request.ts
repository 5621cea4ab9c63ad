import type Anthropic from '@anthropic-ai/sdk';
import type { ModelMessage, ModelRequest, StopReasonFromModel, ToolDefinition } from './types.js';

/** The streaming Messages API body for one request (everything but the signal). */
export function toAnthropicParams(
  request: ModelRequest,
  modelId: string,
  defaultMaxOutputTokens: number,
): Anthropic.MessageCreateParamsStreaming {
  return {
    model: modelId,
    max_tokens: request.maxOutputTokens ?? defaultMaxOutputTokens,
    // The API rejects an empty system text block; leaving the field out means "no system prompt".
    ...(request.system === '' ? {} : { system: request.system }),
    messages: toAnthropicMessages(request.messages),
    ...(request.tools.length === 0 ? {} : { tools: request.tools.map(toAnthropicTool) }),
    stream: true,
  };
}

export function toAnthropicTool(tool: ToolDefinition): Anthropic.Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
  };
}

/**
 * Our neutral messages in Messages API form. The API rejects empty text blocks, and wants a user turn's
 * `tool_result` blocks before any text, so results go first (a notice the engine adds after tool results
 * stays in the same turn). A message left with no content is dropped: the API merges consecutive turns of
 * the same role, so dropping one never breaks the alternation.
 */
export function toAnthropicMessages(messages: ModelMessage[]): Anthropic.MessageParam[] {
  const result: Anthropic.MessageParam[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const toolResults: Anthropic.ToolResultBlockParam[] = [];
      const texts: Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam> = [];
      for (const part of message.content) {
        if (part.type === 'tool-result') {
          toolResults.push({
            type: 'tool_result',
            tool_use_id: part.toolCallId,
            content: part.output,
            ...(part.isError ? { is_error: true } : {}),
          });
        } else if (part.type === 'image') {
          texts.push({ type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } });
        } else if (part.text !== '') {
          texts.push({ type: 'text', text: part.text });
        }
      }
      const content = [...toolResults, ...texts];
      if (content.length > 0) result.push({ role: 'user', content });
    } else {
      const content: Array<Anthropic.TextBlockParam | Anthropic.ToolUseBlockParam> = [];
      for (const part of message.content) {
        if (part.type === 'tool-call') {
          // Input that failed to parse was never run; the API needs an object here all the same.
          const input = isPlainObject(part.input) ? part.input : {};
          content.push({ type: 'tool_use', id: part.toolCallId, name: part.toolName, input });
        } else if (part.text !== '') {
          content.push({ type: 'text', text: part.text });
        }
      }
      if (content.length > 0) result.push({ role: 'assistant', content });
    }
  }
  return result;
}

/** Messages API stop reasons in our terms; `pause_turn`, `refusal` and future ones become `other`. */
export function fromAnthropicStopReason(stopReason: string | null | undefined): StopReasonFromModel {
  switch (stopReason) {
    case 'end_turn':
      return 'end-turn';
    case 'tool_use':
      return 'tool-use';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max-tokens';
    case 'stop_sequence':
      return 'stop-sequence';
    default:
      return 'other';
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
