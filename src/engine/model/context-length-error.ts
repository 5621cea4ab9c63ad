/**
 * A request the provider refused because the conversation no longer fits its context window. The agent
 * loop compacts the conversation and retries once (compaction/), so this error is told apart from other
 * 400s. Both providers' real shapes are recognised:
 * - Anthropic: 400 `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long:
 *   209353 tokens > 200000 maximum"}}` (and 413 `request_too_large` for a body past its byte limit).
 * - OpenAI: 400 `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your
 *   messages resulted in 130017 tokens. …","type":"invalid_request_error","param":"messages",
 *   "code":"context_length_exceeded"}}` (compatible servers often send only the message).
 */
import { ProviderError, type ProviderErrorContext } from '../errors.js';

export class ContextLengthError extends ProviderError {
  override readonly name: string = 'ContextLengthError';
  constructor(
    message: string,
    context: ProviderErrorContext,
    /** The request's size in tokens, when the provider said it. */
    readonly usedTokens: number | undefined,
    /** The model's context window in tokens, when the provider said it: its own figure wins over the table. */
    readonly windowTokens: number | undefined,
    options?: { cause?: unknown },
  ) {
    super('bad-request', message, context, options);
  }
}

/** What a context-length refusal says about sizes; undefined when the error is not one. */
export function contextLengthOf(
  status: number,
  serverMessage: string,
  body: unknown,
): { usedTokens?: number; windowTokens?: number } | undefined {
  if (status !== 400 && status !== 413) return undefined;
  const code = errorField(body, 'code');
  const type = errorField(body, 'type');
  const anthropic = /prompt is too long:\s*([\d,]+)\s*tokens\s*>\s*([\d,]+)\s*maximum/i.exec(serverMessage);
  if (anthropic) return { usedTokens: toNumber(anthropic[1]), windowTokens: toNumber(anthropic[2]) };
  const openai = /maximum context length is\s*([\d,]+)\s*tokens.*?resulted in\s*([\d,]+)\s*tokens/is.exec(serverMessage);
  if (openai) return { windowTokens: toNumber(openai[1]), usedTokens: toNumber(openai[2]) };
  if (
    code === 'context_length_exceeded' ||
    type === 'request_too_large' ||
    /context (length|window)|prompt is too long|too many tokens/i.test(serverMessage)
  ) {
    const limit = /(?:limit|window|length) of\s*([\d,]+)\s*tokens/i.exec(serverMessage);
    return limit ? { windowTokens: toNumber(limit[1]) } : {};
  }
  return undefined;
}

/** `code` or `type` of the error object, wherever the SDK kept it (OpenAI's `error`, Anthropic's `error.error`). */
function errorField(body: unknown, name: 'code' | 'type'): string | undefined {
  if (!isRecord(body)) return undefined;
  const inner = isRecord(body.error) ? body.error : body;
  const value = inner[name];
  return typeof value === 'string' ? value : undefined;
}

function toNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text.replace(/,/g, ''));
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
