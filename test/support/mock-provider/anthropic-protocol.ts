import type { StopReasonFromModel } from '../../../src/engine/model/types.js';
import { isRecord } from './recorded-request.js';
import { type MockTurn, type MockTurnContent, splitIntoChunks, textChunks, toolInputText } from './responses.js';

/**
 * The Anthropic Messages API's streaming format (POST /v1/messages, `stream: true`), as the SDK reads it:
 * `event: <type>` + `data: <json>` frames — message_start, ping, content_block_start/delta/stop per block,
 * message_delta (stop reason, cumulative usage), message_stop.
 */

const stopReasons: Record<StopReasonFromModel, string> = {
  'end-turn': 'end_turn',
  'tool-use': 'tool_use',
  'max-tokens': 'max_tokens',
  'stop-sequence': 'stop_sequence',
  other: 'refusal',
};

/** SSE frames for a turn. A partial turn stops mid-block: no block stop, message_delta or message_stop. */
export function anthropicTurnFrames(
  turn: MockTurnContent & Pick<MockTurn, 'usage' | 'stopReason'>,
  options: { requestIndex: number; model: string; complete: boolean },
): string[] {
  const usage = turn.usage ?? { inputTokens: 10, outputTokens: 5 };
  const frames: string[] = [
    frame('message_start', {
      type: 'message_start',
      message: {
        id: `msg_mock_${options.requestIndex}`,
        type: 'message',
        role: 'assistant',
        model: options.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // The Messages API counts cache reads apart from input_tokens.
        usage: {
          input_tokens: usage.inputTokens - (usage.cachedInputTokens ?? 0),
          output_tokens: 1,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: usage.cachedInputTokens ?? 0,
        },
      },
    }),
    frame('ping', { type: 'ping' }),
  ];
  const blocks: string[][] = [];
  const texts = textChunks(turn);
  if (texts.length > 0) {
    blocks.push([
      frame('content_block_start', { type: 'content_block_start', index: blocks.length, content_block: { type: 'text', text: '' } }),
      ...texts.map((text) =>
        frame('content_block_delta', { type: 'content_block_delta', index: blocks.length, delta: { type: 'text_delta', text } }),
      ),
    ]);
  }
  for (const [position, toolCall] of (turn.toolCalls ?? []).entries()) {
    const index = blocks.length;
    const id = toolCall.id ?? `toolu_mock_${options.requestIndex}_${position + 1}`;
    const input = toolInputText(toolCall);
    blocks.push([
      frame('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id, name: toolCall.name, input: {} },
      }),
      ...(input === ''
        ? []
        : splitIntoChunks(input, toolCall.inputChunks ?? 3).map((partial_json) =>
            frame('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }),
          )),
    ]);
  }
  for (const [index, block] of blocks.entries()) {
    frames.push(...block);
    const last = index === blocks.length - 1;
    if (options.complete || !last) frames.push(frame('content_block_stop', { type: 'content_block_stop', index }));
  }
  if (!options.complete) return frames;
  const stopReason = turn.stopReason ?? ((turn.toolCalls ?? []).length > 0 ? 'tool-use' : 'end-turn');
  frames.push(
    frame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReasons[stopReason], stop_sequence: null },
      usage: { output_tokens: usage.outputTokens },
    }),
    frame('message_stop', { type: 'message_stop' }),
  );
  return frames;
}

/** The frame Anthropic sends when it gives up mid-stream. */
export function anthropicErrorFrame(message: string): string {
  return frame('error', { type: 'error', error: { type: 'overloaded_error', message } });
}

export function anthropicErrorBody(status: number, message: string): unknown {
  return { type: 'error', error: { type: errorType(status), message } };
}

/**
 * The checks the real API makes that an adapter or agent loop could get wrong: required fields, non-empty
 * content, and tool_use/tool_result pairing between neighbouring turns. Returns the API's complaint, or
 * undefined for a good request.
 */
export function anthropicRequestProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'the request body must be a JSON object';
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (typeof body.max_tokens !== 'number' || body.max_tokens < 1) return 'max_tokens: Field required';
  if (body.stream !== true) return 'the mock provider only serves streaming requests (stream: true)';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';
  const messages = body.messages as unknown[];
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || (message.role !== 'user' && message.role !== 'assistant'))
      return `messages.${index}: role must be user or assistant`;
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (!Array.isArray(blocks) || blocks.length === 0) return `messages.${index}: all messages must have non-empty content`;
    for (const [blockIndex, block] of blocks.entries()) {
      if (isRecord(block) && block.type === 'text' && block.text === '')
        return `messages.${index}.content.${blockIndex}: text content blocks must be non-empty`;
    }
    const previousToolUses = index === 0 ? [] : toolUseIds(messages[index - 1]);
    const strayResults = blockIds(blocks, 'tool_result', 'tool_use_id').filter((id) => !previousToolUses.includes(id));
    if (strayResults.length > 0) {
      return `messages.${index}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${strayResults.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    const next = messages[index + 1];
    const unanswered =
      next === undefined
        ? []
        : toolUseIds(message).filter((id) => !blockIds(contentBlocks(next), 'tool_result', 'tool_use_id').includes(id));
    if (unanswered.length > 0) {
      return `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  for (const [index, tool] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    if (!isRecord(tool) || typeof tool.name !== 'string' || !isRecord(tool.input_schema) || tool.input_schema.type !== 'object') {
      return `tools.${index}: a tool needs a name and an input_schema of type "object"`;
    }
  }
  return undefined;
}

function toolUseIds(message: unknown): string[] {
  return isRecord(message) && message.role === 'assistant' ? blockIds(contentBlocks(message), 'tool_use', 'id') : [];
}

function contentBlocks(message: unknown): unknown[] {
  return isRecord(message) && Array.isArray(message.content) ? message.content : [];
}

function blockIds(blocks: unknown[], type: string, field: string): string[] {
  return blocks.flatMap((block) => (isRecord(block) && block.type === type ? [String(block[field])] : []));
}

function errorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
