import type { StopReasonFromModel } from '../../../src/engine/model/types.js';
import type { RecordedRequest } from './recorded-request.js';

/** One tool call the mock model makes. */
export interface MockToolCall {
  /** Default: made up per request, e.g. `toolu_mock_0_1` (Anthropic) or `call_mock_0_1` (OpenAI). */
  id?: string;
  name: string;
  /** Sent as JSON. Default `{}`. */
  input?: unknown;
  /** Sent instead of `input`, verbatim: for invalid JSON, or an empty string. */
  rawInput?: string;
  /** How many deltas the input text is split over. Default 3 (fewer for short input). */
  inputChunks?: number;
}

/** What a (possibly partial) turn says. */
export interface MockTurnContent {
  /** Text deltas, one per element. Default: none. */
  text?: string | string[];
  /** Tool calls after the text. Default: none. */
  toolCalls?: MockToolCall[];
}

/** Latency before the server answers at all: milliseconds, or a promise the test resolves. */
export type MockDelay = number | Promise<unknown>;

/** A complete streamed turn. */
export interface MockTurn extends MockTurnContent {
  type: 'turn';
  /** Default `{ inputTokens: 10, outputTokens: 5 }`. `cachedInputTokens`: of the input, read from the prompt cache. */
  usage?: { inputTokens: number; outputTokens: number; cachedInputTokens?: number };
  /** Default `tool-use` when there are tool calls, else `end-turn`. Rendered in each protocol's terms. */
  stopReason?: StopReasonFromModel;
  delay?: MockDelay;
}

/** An error response with the provider's JSON error body. */
export interface MockHttpError {
  type: 'http-error';
  status: number;
  /** The provider's error message. Default: one typical for the status. */
  message?: string;
  /**
   * Extra headers. By default every error carries `retry-after: 0` and `retry-after-ms: 1`, so the SDKs
   * retry 429 and 5xx at once (Anthropic's SDK ignores a zero wait and falls back to its 0.5 s backoff,
   * hence the 1 ms); pass other values here to override.
   */
  headers?: Record<string, string>;
  delay?: MockDelay;
}

/** Streams `partial`, then cuts the connection (`destroy`, the default) or ends it cleanly too early (`end`). */
export interface MockDroppedStream {
  type: 'drop';
  partial?: MockTurnContent;
  how?: 'destroy' | 'end';
  delay?: MockDelay;
}

/** Streams `partial`, then sends nothing more until the client goes away (or the server closes). */
export interface MockHangingStream {
  type: 'hang';
  partial?: MockTurnContent;
  delay?: MockDelay;
}

/**
 * Streams `partial`, then an in-stream error (Anthropic's `event: error`, OpenAI's `data: {"error": …}`),
 * as a provider does when it gives up mid-response (Anthropic: overloaded), then ends the response.
 */
export interface MockStreamError {
  type: 'stream-error';
  partial?: MockTurnContent;
  /** Default `Overloaded`. */
  message?: string;
  delay?: MockDelay;
}

export type MockResponse = MockTurn | MockHttpError | MockDroppedStream | MockHangingStream | MockStreamError;

/** Decides the response from the request: for routing many concurrent agents by their content. */
export type MockResponder = (request: RecordedRequest) => MockResponse | Promise<MockResponse>;

/** A turn that says `chunks`, one text delta each. */
export function textTurn(...chunks: string[]): MockTurn {
  return { type: 'turn', text: chunks };
}

/** A turn that makes these tool calls (after `text`, if given). */
export function toolCallTurn(toolCalls: MockToolCall[], text?: string | string[]): MockTurn {
  return { type: 'turn', toolCalls, ...(text === undefined ? {} : { text }) };
}

export function httpError(status: number, options: Omit<MockHttpError, 'type' | 'status'> = {}): MockHttpError {
  return { type: 'http-error', status, ...options };
}

/** 429 with an immediate retry-after. */
export function rateLimited(options: Omit<MockHttpError, 'type' | 'status'> = {}): MockHttpError {
  return httpError(429, options);
}

export function serverError(status = 500, options: Omit<MockHttpError, 'type' | 'status'> = {}): MockHttpError {
  return httpError(status, options);
}

export function unauthorized(options: Omit<MockHttpError, 'type' | 'status'> = {}): MockHttpError {
  return httpError(401, options);
}

export function droppedStream(partial: MockTurnContent = { text: ['Partial'] }, how: 'destroy' | 'end' = 'destroy'): MockDroppedStream {
  return { type: 'drop', partial, how };
}

export function hangingStream(partial: MockTurnContent = { text: ['Working'] }): MockHangingStream {
  return { type: 'hang', partial };
}

export function streamError(partial: MockTurnContent = { text: ['Partial'] }, message = 'Overloaded'): MockStreamError {
  return { type: 'stream-error', partial, message };
}

/** The same response, after a delay (milliseconds, or a promise the test resolves). */
export function delayed<Response extends MockResponse>(response: Response, delay: MockDelay): Response {
  return { ...response, delay };
}

/** Splits text into `count` pieces of near-equal length (mid-token, as real streams do). */
export function splitIntoChunks(text: string, count: number): string[] {
  const pieces = Math.max(1, Math.min(count, text.length));
  const size = Math.ceil(text.length / pieces);
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += size) chunks.push(text.slice(start, start + size));
  return chunks.length === 0 ? [''] : chunks;
}

/** A tool call's input text, as it will be streamed. */
export function toolInputText(toolCall: MockToolCall): string {
  return toolCall.rawInput ?? JSON.stringify(toolCall.input ?? {});
}

export function textChunks(content: MockTurnContent): string[] {
  if (content.text === undefined) return [];
  return typeof content.text === 'string' ? [content.text] : content.text;
}
