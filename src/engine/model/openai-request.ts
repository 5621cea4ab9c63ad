import type OpenAI from 'openai';
import type { ModelMessage, ModelRequest, StopReasonFromModel, ToolDefinition } from './types.js';

/** Which body field carries the output limit. */
export type MaxTokensParameter = 'max_completion_tokens' | 'max_tokens';

/** The streaming Chat Completions body for one request (everything but the signal). */
export function toOpenAIParams(
  request: ModelRequest,
  modelId: string,
  limits: { defaultMaxOutputTokens?: number; maxTokensParameter: MaxTokensParameter },
): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
  const maxOutputTokens = request.maxOutputTokens ?? limits.defaultMaxOutputTokens;
  return {
    model: modelId,
    messages: toOpenAIMessages(request.system, request.messages),
    // Some compatible servers reject an empty tools array, so none means the field is left out.
    ...(request.tools.length === 0 ? {} : { tools: request.tools.map(toOpenAITool) }),
    ...(maxOutputTokens === undefined ? {} : { [limits.maxTokensParameter]: maxOutputTokens }),
    stream: true,
    stream_options: { include_usage: true },
  };
}

export function toOpenAITool(tool: ToolDefinition): OpenAI.Chat.ChatCompletionFunctionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
}

/**
 * Our neutral messages in Chat Completions form: the system prompt as the first message, an assistant
 * turn's tool calls as `tool_calls`, and each tool result as its own `tool` message. Those must come right
 * after the assistant message that made the calls, so a user turn's results go before its text. The API
 * has no error flag for a tool result, so an error says so in its text.
 */
export function toOpenAIMessages(system: string, messages: ModelMessage[]): OpenAI.Chat.ChatCompletionMessageParam[] {
  const result: OpenAI.Chat.ChatCompletionMessageParam[] = system === '' ? [] : [{ role: 'system', content: system }];
  for (const message of messages) {
    if (message.role === 'user') {
      const texts: string[] = [];
      const images: OpenAI.Chat.ChatCompletionContentPartImage[] = [];
      for (const part of message.content) {
        if (part.type === 'tool-result') {
          result.push({ role: 'tool', tool_call_id: part.toolCallId, content: part.isError ? `Error: ${part.output}` : part.output });
        } else if (part.type === 'image') {
          images.push({ type: 'image_url', image_url: { url: `data:${part.mediaType};base64,${part.data}` } });
        } else if (part.text !== '') {
          texts.push(part.text);
        }
      }
      // Text alone stays a plain string (every compatible server takes it); images need the parts form.
      if (images.length > 0)
        result.push({
          role: 'user',
          content: [...(texts.length > 0 ? [{ type: 'text' as const, text: texts.join('\n\n') }] : []), ...images],
        });
      else if (texts.length > 0) result.push({ role: 'user', content: texts.join('\n\n') });
    } else {
      const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      const toolCalls = message.content.flatMap((part) =>
        part.type === 'tool-call'
          ? [
              {
                id: part.toolCallId,
                type: 'function' as const,
                function: { name: part.toolName, arguments: JSON.stringify(part.input ?? {}) },
              },
            ]
          : [],
      );
      if (text === '' && toolCalls.length === 0) continue;
      result.push({
        role: 'assistant',
        content: text === '' ? null : text,
        ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
      });
    }
  }
  return result;
}

/** Chat Completions finish reasons in our terms. */
export function fromOpenAIFinishReason(finishReason: string | null | undefined): StopReasonFromModel {
  switch (finishReason) {
    case 'stop':
      return 'end-turn';
    case 'tool_calls':
    case 'function_call':
      return 'tool-use';
    case 'length':
      return 'max-tokens';
    default:
      return 'other';
  }
}
