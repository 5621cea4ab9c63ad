import type { StopReasonFromModel } from '../../../src/engine/model/types.js';
import { isRecord } from './recorded-request.js';
import { type MockTurn, type MockTurnContent, splitIntoChunks, textChunks, toolInputText } from './responses.js';

/**
 * OpenAI Chat Completions' streaming format (POST /v1/chat/completions, `stream: true`), as the SDK reads
 * it: `data: <chunk json>` frames — a role chunk, content deltas, tool_call deltas by index (id and name in
 * the first), a chunk with `finish_reason`, the usage chunk (empty `choices`) only when the request asked
 * for `stream_options.include_usage`, then `data: [DONE]`.
 */

const finishReasons: Record<StopReasonFromModel, string> = {
  'end-turn': 'stop',
  'tool-use': 'tool_calls',
  'max-tokens': 'length',
  'stop-sequence': 'stop',
  other: 'content_filter',
};

/** SSE frames for a turn. A partial turn has no finish chunk, usage or `[DONE]`. */
export function openAITurnFrames(
  turn: MockTurnContent & Pick<MockTurn, 'usage' | 'stopReason'>,
  options: { requestIndex: number; model: string; complete: boolean; includeUsage: boolean },
): string[] {
  const base = {
    id: `chatcmpl-mock-${options.requestIndex}`,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: options.model,
    system_fingerprint: null,
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
    frame({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });

  const frames = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const text of textChunks(turn)) frames.push(chunk({ content: text }));
  for (const [index, toolCall] of (turn.toolCalls ?? []).entries()) {
    const id = toolCall.id ?? `call_mock_${options.requestIndex}_${index + 1}`;
    frames.push(chunk({ tool_calls: [{ index, id, type: 'function', function: { name: toolCall.name, arguments: '' } }] }));
    const input = toolInputText(toolCall);
    if (input === '') continue;
    for (const piece of splitIntoChunks(input, toolCall.inputChunks ?? 3)) {
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  if (!options.complete) return frames;
  const stopReason = turn.stopReason ?? ((turn.toolCalls ?? []).length > 0 ? 'tool-use' : 'end-turn');
  frames.push(chunk({}, finishReasons[stopReason]));
  if (options.includeUsage) {
    const usage = turn.usage ?? { inputTokens: 10, outputTokens: 5 };
    frames.push(
      frame({
        ...base,
        choices: [],
        usage: {
          prompt_tokens: usage.inputTokens,
          completion_tokens: usage.outputTokens,
          total_tokens: usage.inputTokens + usage.outputTokens,
          ...(usage.cachedInputTokens ? { prompt_tokens_details: { cached_tokens: usage.cachedInputTokens } } : {}),
        },
      }),
    );
  }
  frames.push('data: [DONE]\n\n');
  return frames;
}

/** The chunk OpenAI sends when it gives up mid-stream. */
export function openAIErrorFrame(message: string): string {
  return frame({ error: { message, type: 'server_error', param: null, code: null } });
}

export function openAIErrorBody(status: number, message: string): unknown {
  return { error: { message, type: errorType(status), param: null, code: status === 401 ? 'invalid_api_key' : null } };
}

/** True when the request asked for the final usage chunk. */
export function wantsUsage(body: unknown): boolean {
  return isRecord(body) && isRecord(body.stream_options) && body.stream_options.include_usage === true;
}

/**
 * The checks the real API makes that an adapter or agent loop could get wrong: required fields, and every
 * assistant `tool_calls` answered by `tool` messages right after it (and no `tool` message without one).
 * Returns the API's complaint, or undefined for a good request.
 */
export function openAIRequestProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'the request body must be a JSON object';
  if (typeof body.model !== 'string' || body.model === '') return 'you must provide a model parameter';
  if (body.stream !== true) return 'the mock provider only serves streaming requests (stream: true)';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "'messages' must contain at least one message";
  let pendingCalls: string[] = [];
  let answeringCalls = false;
  for (const [index, message] of (body.messages as unknown[]).entries()) {
    if (!isRecord(message)) return `messages[${index}] must be an object`;
    if (message.role === 'tool') {
      const id = String(message.tool_call_id);
      if (!answeringCalls || !pendingCalls.includes(id)) {
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages[${index}], tool_call_id ${id}).`;
      }
      pendingCalls = pendingCalls.filter((pending) => pending !== id);
      continue;
    }
    if (pendingCalls.length > 0) return unansweredCalls(pendingCalls);
    answeringCalls = message.role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
    pendingCalls = answeringCalls ? (message.tool_calls as unknown[]).map((call) => (isRecord(call) ? String(call.id) : '')) : [];
  }
  if (pendingCalls.length > 0) return unansweredCalls(pendingCalls);
  return undefined;
}

function unansweredCalls(ids: string[]): string {
  return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${ids.join(', ')}`;
}

function errorType(status: number): string {
  if (status === 401) return 'invalid_request_error';
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function frame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}
