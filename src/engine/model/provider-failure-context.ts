import type { ProviderErrorContext } from '../errors.js';
import { maxRetryAfterMs } from './request-limits.js';

/** Who a failing model request went to, and how that is said in the messages of its errors. */

type ErrorClass = abstract new (...args: never[]) => Error;

/** The SDK error classes the mapping tells apart. */
export interface SdkErrorClasses {
  /** Any error response; carries `status` (undefined for an error event inside a stream). */
  APIError: ErrorClass;
  /** The request never got a response: refused, reset, DNS. */
  APIConnectionError: ErrorClass;
  /** A subclass of `APIConnectionError`: no response within the client's timeout. */
  APIConnectionTimeoutError: ErrorClass;
  /** The caller's signal aborted the request. */
  APIUserAbortError: ErrorClass;
}

/** Who the failing request went to, for the message. */
export interface ProviderFailureContext {
  /** `anthropic` or `openai`. */
  provider: string;
  /** Shown to the user: `Anthropic`, `OpenAI`. */
  displayName: string;
  /** The base URL the client used. */
  baseUrl: string;
  /** True when `baseUrl` is the provider's own API rather than a proxy or compatible server. */
  officialBaseUrl: boolean;
  /** The environment variable the key comes from, e.g. `ANTHROPIC_API_KEY`. */
  apiKeyVariable: string;
  modelId: string;
  /** The retries allowed on retryable failures (429, 5xx, connection errors, timeouts). */
  maxRetries: number;
  /** The requests made for this call so far, the failing one included. Default `maxRetries + 1`. */
  attempts?: number;
  /** Set when the provider asked to wait longer before a retry than the engine waits (`maxRetryAfterMs`). */
  refusedWaitMs?: number;
  /** The client's per-request timeout, when one was set. */
  timeoutMs?: number;
  errorClasses: SdkErrorClasses;
  /** The request's signal: once aborted, every failure is a stop, not a provider error. */
  signal: AbortSignal;
  /**
   * Values kept out of every message and cause (the API keys). Provider responses are quoted in messages
   * and may echo the key; key-shaped values are redacted whether listed here or not. Default: none.
   */
  secrets?: readonly string[];
}

/** `Anthropic`, or `the Anthropic-compatible server at <url>` for a proxy or local server. */
export function providerLabel(context: ProviderFailureContext): string {
  return context.officialBaseUrl ? context.displayName : `the ${context.displayName}-compatible server at ${context.baseUrl}`;
}

/** `3 attempts`; or, when the provider asked for a longer wait than the engine gives, what it asked. */
export function attempts(context: ProviderFailureContext): string {
  if (context.refusedWaitMs !== undefined) {
    return `it asked to wait ${formatSeconds(Math.ceil(context.refusedWaitMs / 1000) * 1000)} before a retry, longer than the ${formatSeconds(maxRetryAfterMs)} Agent Team waits`;
  }
  const count = context.attempts ?? context.maxRetries + 1;
  return count === 1 ? 'no retries' : `${count} attempts`;
}

export function formatSeconds(milliseconds: number): string {
  return milliseconds % 1000 === 0 ? `${milliseconds / 1000} s` : `${milliseconds} ms`;
}

export function contextOf(context: ProviderFailureContext, status?: number): ProviderErrorContext {
  return {
    provider: context.provider,
    baseUrl: context.baseUrl,
    ...(status === undefined ? {} : { status }),
    ...(context.secrets === undefined ? {} : { secrets: context.secrets }),
  };
}
