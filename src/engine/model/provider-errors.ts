import { type AgentTeamError, ProviderError, type ProviderErrorContext, StoppedError, stopReasonOf } from '../errors.js';
import { redactErrorInPlace } from '../secrets.js';
import { certificateProblem } from './certificate-problem.js';
import { ContextLengthError, contextLengthOf } from './context-length-error.js';
import { RedirectRefused } from './redirect-refused.js';
import { maxRetryAfterMs } from './request-limits.js';
import { ResponseTimeout } from './response-timeout.js';

/**
 * Turns whatever an SDK call threw into an error a user can act on. Both SDKs are generated from the same
 * template (Stainless), so one mapping serves both: each adapter hands over its SDK's error classes.
 */

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

/**
 * Maps a failure of one model request. `phase` says where it happened: `request` (before the response
 * started streaming) or `stream` (while reading it, where any transport failure means the stream was cut).
 * Errors that did not come from the SDK or the network are returned unchanged: they are bugs to see.
 */
export function toProviderFailure(error: unknown, phase: 'request' | 'stream', context: ProviderFailureContext): unknown {
  if (context.signal.aborted) return new StoppedError(stopReasonOf(context.signal));
  if (error instanceof ProviderError || error instanceof StoppedError) return error;
  const classes = context.errorClasses;
  const label = providerLabel(context);
  const errorContext = contextOf(context);

  if (error instanceof ResponseTimeout) return timeoutError(error, context, label);
  if (error instanceof classes.APIUserAbortError) {
    // The SDK saw an abort that was not ours (a closed client); treat it as a cut connection.
    return streamCut(label, 'the request was aborted', errorContext, error);
  }
  if (error instanceof classes.APIConnectionTimeoutError) {
    const after = context.timeoutMs === undefined ? '' : ` after ${formatSeconds(context.timeoutMs)}`;
    return new ProviderError(
      'connection',
      `the request to ${context.baseUrl} timed out${after} (${attempts(context)}); check the network or raise the timeout`,
      errorContext,
      { cause: error },
    );
  }
  const redirect = error instanceof classes.APIConnectionError ? refusedRedirectOf(error) : undefined;
  if (redirect) {
    const where = redirect.target ? `: it points to ${redirect.target}` : ' (open it in a browser to see where)';
    return new ProviderError(
      'bad-request',
      `${context.baseUrl} answered with a redirect, which Agent Team does not follow: it would send the API key on to wherever it points. Set the base URL to the address the server redirects to${where}.`,
      errorContext,
      { cause: error },
    );
  }
  if (error instanceof classes.APIConnectionError) {
    const detail = networkDetail(error);
    const refusedCertificate = certificateProblem(detail);
    if (refusedCertificate) {
      return new ProviderError('connection', `cannot connect to ${context.baseUrl}: ${refusedCertificate}`, errorContext, { cause: error });
    }
    return new ProviderError(
      'connection',
      `cannot connect to ${context.baseUrl} (is the server running?${detail ? ` ${detail}` : ''})`,
      errorContext,
      { cause: error },
    );
  }
  if (error instanceof classes.APIError) {
    const status = (error as Error & { status?: unknown }).status;
    if (typeof status === 'number') {
      const serverMessage = serverMessageOf(error);
      const sizes = contextLengthOf(status, serverMessage, (error as Error & { error?: unknown }).error);
      if (sizes)
        return new ContextLengthError(
          `the conversation no longer fits the context window of ${context.modelId} (${status}): ${serverMessage}`,
          contextOf(context, status),
          sizes.usedTokens,
          sizes.windowTokens,
          { cause: error },
        );
      return fromStatus(status, serverMessage, context, label, error);
    }
    // An error event inside the stream: the provider gave up mid-response.
    return new ProviderError(
      'server',
      `${label} reported an error during the response: ${serverMessageOf(error)}; try again`,
      errorContext,
      {
        cause: error,
      },
    );
  }
  if (phase === 'stream' && isTransportOrParseFailure(error)) {
    const code = networkDetail(error);
    return streamCut(label, code ? `the connection was cut: ${code}` : errorText(error), errorContext, error);
  }
  // Left unchanged so the bug is seen, but without a key it may quote.
  redactErrorInPlace(error, context.secrets);
  return error;
}

/** The failure for a stream that ended cleanly but without the provider's end-of-response marker. */
export function incompleteStreamError(context: ProviderFailureContext, detail: string): AgentTeamError {
  if (context.signal.aborted) return new StoppedError(stopReasonOf(context.signal));
  return streamCut(providerLabel(context), detail, contextOf(context));
}

/** The provider did not start answering in time, or went quiet mid-response; the request was closed. */
function timeoutError(timeout: ResponseTimeout, context: ProviderFailureContext, label: string): ProviderError {
  const waited = formatSeconds(timeout.timeoutMs);
  const message =
    timeout.phase === 'response-start'
      ? `${label} did not start answering within ${waited} (${attempts(context)}), so the request was closed. Check the server at ${context.baseUrl}, or raise the request timeout.`
      : `${label} stopped sending: nothing arrived for ${waited} after the response had started (${attempts(context)}), so the request was closed. Try again, or raise the idle timeout.`;
  return new ProviderError('timeout', message, contextOf(context), { cause: timeout });
}

function contextOf(context: ProviderFailureContext, status?: number): ProviderErrorContext {
  return {
    provider: context.provider,
    baseUrl: context.baseUrl,
    ...(status === undefined ? {} : { status }),
    ...(context.secrets === undefined ? {} : { secrets: context.secrets }),
  };
}

function fromStatus(status: number, serverMessage: string, context: ProviderFailureContext, label: string, cause: Error): ProviderError {
  const errorContext = contextOf(context, status);
  const said = serverMessage ? `: ${serverMessage}` : '';
  const keyHelp = `Set ${context.apiKeyVariable}, or run "Agent Team: Set API Key" in VS Code`;
  if (status === 401) {
    return new ProviderError('auth', `${label} rejected the API key (401)${said}. ${keyHelp}.`, errorContext, { cause });
  }
  if (status === 403) {
    return new ProviderError(
      'auth',
      `${label} refused access (403)${said}. Check that the API key is allowed to use model "${context.modelId}". ${keyHelp}.`,
      errorContext,
      { cause },
    );
  }
  if (status === 429) {
    return new ProviderError(
      'rate-limit',
      `${label} rate limited the request (429, ${attempts(context)})${said}. Try again later, or run fewer tasks at once.`,
      errorContext,
      { cause },
    );
  }
  if (status >= 500) {
    const server = context.officialBaseUrl ? `${label}'s server` : label;
    return new ProviderError('server', `${server} failed (${status}, ${attempts(context)})${said}. Try again later.`, errorContext, {
      cause,
    });
  }
  if (status === 404) {
    return new ProviderError(
      'bad-request',
      `${label} has no such model or endpoint (404)${said}. Check the model id "${context.modelId}" and the base URL ${context.baseUrl}.`,
      errorContext,
      { cause },
    );
  }
  return new ProviderError('bad-request', `${label} rejected the request (${status})${said}`, errorContext, { cause });
}

function streamCut(label: string, detail: string, errorContext: ProviderErrorContext, cause?: unknown): ProviderError {
  return new ProviderError(
    'stream',
    `the stream from ${label} ended before the response was complete (${detail}); try again`,
    errorContext,
    cause === undefined ? undefined : { cause },
  );
}

/** `Anthropic`, or `the Anthropic-compatible server at <url>` for a proxy or local server. */
function providerLabel(context: ProviderFailureContext): string {
  return context.officialBaseUrl ? context.displayName : `the ${context.displayName}-compatible server at ${context.baseUrl}`;
}

/** `3 attempts`; or, when the provider asked for a longer wait than the engine gives, what it asked. */
function attempts(context: ProviderFailureContext): string {
  if (context.refusedWaitMs !== undefined) {
    return `it asked to wait ${formatSeconds(Math.ceil(context.refusedWaitMs / 1000) * 1000)} before a retry, longer than the ${formatSeconds(maxRetryAfterMs)} Agent Team waits`;
  }
  const count = context.attempts ?? context.maxRetries + 1;
  return count === 1 ? 'no retries' : `${count} attempts`;
}

function formatSeconds(milliseconds: number): string {
  return milliseconds % 1000 === 0 ? `${milliseconds / 1000} s` : `${milliseconds} ms`;
}

/**
 * The provider's own words. Anthropic's SDK keeps the whole body (`{type, error: {type, message}}`),
 * OpenAI's keeps `body.error` (`{message, type}`); a non-JSON body ends up in the message after the status.
 */
function serverMessageOf(error: Error): string {
  const body = (error as Error & { error?: unknown }).error;
  const nested = readMessage(body) ?? readMessage(isRecord(body) ? body.error : undefined);
  const text = nested ?? error.message.replace(/^\d{3}\s+/, '').replace(/^\d{3} status code \(no body\)$/, '');
  return truncate(text.trim(), 300);
}

function readMessage(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  return typeof value.message === 'string' && value.message !== '' ? value.message : undefined;
}

/** The most specific reason in an error's cause chain: `ECONNREFUSED`, `other side closed`, … */
function networkDetail(error: unknown): string {
  const details: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string' && !details.includes(code)) details.push(code);
    current = current.cause;
  }
  return details.join(', ');
}

/** True when TLS refused the server's certificate: not worth a retry, the same certificate comes back. */
export function isUntrustedCertificate(error: unknown): boolean {
  return certificateProblem(networkDetail(error)) !== undefined;
}

/**
 * True when the transport refused a redirect (`RedirectRefused`, somewhere down the cause chain: the SDK
 * wraps it). Not worth a retry: the server answers the same way again.
 */
export function isRefusedRedirect(error: unknown): boolean {
  return refusedRedirectOf(error) !== undefined;
}

function refusedRedirectOf(error: unknown): RedirectRefused | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof RedirectRefused) return current;
    current = current.cause;
  }
  return undefined;
}

/** Transport failures (`TypeError: terminated`) and garbled event data, as opposed to our own bugs. */
export function isTransportOrParseFailure(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  if (!(error instanceof Error)) return false;
  if (error.name === 'AbortError') return true;
  return (error instanceof TypeError && (error.message === 'terminated' || error.cause instanceof Error)) || hasNetworkCode(error);
}

function hasNetworkCode(error: Error): boolean {
  return networkDetail(error) !== '';
}

function errorText(error: unknown): string {
  if (error instanceof SyntaxError) return `unreadable event data: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

function truncate(text: string, maximum: number): string {
  return text.length <= maximum ? text : `${text.slice(0, maximum - 1)}…`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
