/**
 * The provider-neutral model interface. Every provider adapter (Anthropic, OpenAI and compatible servers,
 * later VS Code's Language Model API) turns one `ModelRequest` into a stream of `ModelStreamEvent`s.
 */
import type { Usage } from './usage-schema.js';

export type { Usage } from './usage-schema.js';

export interface TextPart {
  type: 'text';
  text: string;
}

/** The image types both providers accept. */
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** An image the user attached, for models that see images (`Model.acceptsImages`). */
export interface ImagePart {
  type: 'image';
  mediaType: ImageMediaType;
  /** The bytes, base64. */
  data: string;
  /** What the user called it (a file name), for notes about it. */
  name?: string;
}

export interface ToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  /** The parsed input as the model sent it (not yet validated against the tool's schema). */
  input: unknown;
}

export interface ToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  /** What the model reads back. Errors are results too, so the model can act on them. */
  output: string;
  isError?: boolean;
}

export type ModelMessage =
  { role: 'user'; content: Array<TextPart | ImagePart | ToolResultPart> } | { role: 'assistant'; content: Array<TextPart | ToolCallPart> };

/** A JSON Schema object, as sent to the provider for a tool's input. */
export type JsonSchema = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

export interface ModelRequest {
  /** The system instruction. */
  system: string;
  messages: ModelMessage[];
  /** Tools the model may call; empty means none. */
  tools: ToolDefinition[];
  /** Upper bound on output tokens for this turn. Default: the adapter's own (4096). */
  maxOutputTokens?: number;
  /** Aborting closes the HTTP request; the stream then throws a `StoppedError`. */
  signal: AbortSignal;
}

export type StopReasonFromModel = 'end-turn' | 'tool-use' | 'max-tokens' | 'stop-sequence' | 'other';

export type ModelStreamEvent =
  | { type: 'text-delta'; text: string }
  /**
   * A complete tool call. `input` is the parsed JSON; when the model sent text that is not valid JSON,
   * `input` is undefined and `inputError` says why (with the raw text in `rawInput`), so the agent loop
   * can hand the model an error result instead of failing the run.
   */
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown; rawInput: string; inputError?: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; stopReason: StopReasonFromModel }
  /**
   * The model answering changed within the request (a `FailoverModel` moved on after an outage): `model`
   * names the one answering from here (`provider/modelId`), `notice` says what failed, for the transcript.
   * The text and tool calls streamed before it are void (the turn starts over on that model); its usage
   * events still count, as tokens already spent.
   */
  | { type: 'model-switch'; model: string; notice: string };

export interface Model {
  /** `anthropic`, `openai`, `scripted`, … */
  readonly provider: string;
  readonly modelId: string;
  /** True when the model sees image parts; a model without it is sent a note in each image's place. Default false. */
  readonly acceptsImages?: boolean;
  /**
   * Streams one model turn. Throws `ProviderError` on provider failures and `StoppedError` when the
   * request's signal is aborted.
   */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

/**
 * Set (true) on a stream's iterator whose pending `next()` settles the moment the request's signal aborts,
 * rejecting with a `StoppedError`, whatever the provider does. The model turn then waits on its steps as
 * they are, without a guard of its own around each (two promises an event: B2 in docs/performance.md);
 * a stream without it still has its turn cut short at once, by that guard.
 */
export const stopsAtOnce: unique symbol = Symbol('stopsAtOnce');

export function addUsage(a: Usage, b: Usage): Usage {
  const cached = (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
  };
}

export const zeroUsage: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0 });
