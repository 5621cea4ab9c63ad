import type { Clock } from '../clock.js';
import { StoppedError, stopReasonOf } from '../errors.js';
import { onAbort } from '../abort.js';
import { isRefusedRedirect, isTransportOrParseFailure, isUntrustedCertificate } from './error-causes.js';
import type { SdkErrorClasses } from './provider-failure-context.js';
import { maxRetryAfterMs } from './request-limits.js';
import { ResponseTimeout } from './response-timeout.js';

/**
 * When a failed model request is tried again, and after how long. The SDKs' own retries are off
 * (`maxRetries: 0`): their waits cannot be cut short by a stop (OpenAI's sleep ignores the signal), and
 * they honour any `retry-after`, an hour included. This policy keeps their retryable classes and backoff.
 */

/** Backoff without a `retry-after`: 0.5 s, 1 s, 2 s, … up to 8 s, minus up to 25 % jitter (the SDKs' own). */
const initialBackoffMs = 500;
const maxBackoffMs = 8_000;
const maxJitter = 0.25;

/** What a failure is, for the retry decision: where it happened and whether anything reached the caller. */
export interface AttemptFailure {
  error: unknown;
  /** `request`: before the response started; `stream`: while reading it; `incomplete`: it ended too early. */
  phase: 'request' | 'stream' | 'incomplete';
}

/**
 * True for failures worth another attempt: 408, 409, 429 and 5xx (unless the server's `x-should-retry`
 * says otherwise), connection failures (not a refused redirect or certificate), timeouts, and a stream that
 * failed or ended early. The caller retries only while nothing of the response has been handed on.
 */
export function isRetryableFailure(failure: AttemptFailure, classes: SdkErrorClasses): boolean {
  const { error, phase } = failure;
  if (phase === 'incomplete' || error instanceof ResponseTimeout) return true;
  if (error instanceof classes.APIUserAbortError) return false;
  if (error instanceof classes.APIConnectionError) return !isRefusedRedirect(error) && !isUntrustedCertificate(error);
  if (error instanceof classes.APIError) {
    const status = (error as Error & { status?: unknown }).status;
    // An error event inside the stream: the provider gave up (overloaded) before sending anything.
    if (typeof status !== 'number') return true;
    const serverSays = headerOf(error, 'x-should-retry');
    if (serverSays === 'true') return true;
    if (serverSays === 'false') return false;
    return status === 408 || status === 409 || status === 429 || status >= 500;
  }
  return phase === 'stream' && isTransportOrParseFailure(error);
}

/** Wait this long, or (the provider asked for more than `maxRetryAfterMs`) do not retry at all. */
export type RetryWait = { kind: 'wait'; waitMs: number } | { kind: 'refused'; askedMs: number };

/**
 * The wait before retry number `retryNumber` (1 for the first retry): the provider's `retry-after-ms` or
 * `retry-after` (seconds or an HTTP date) when it sent one, else exponential backoff with jitter.
 */
export function retryWait(error: unknown, retryNumber: number, clock: Clock, random: () => number): RetryWait {
  const askedMs = retryAfterMs(error, clock.now());
  if (askedMs !== undefined) return askedMs > maxRetryAfterMs ? { kind: 'refused', askedMs } : { kind: 'wait', waitMs: askedMs };
  const backoffMs = Math.min(initialBackoffMs * 2 ** (retryNumber - 1), maxBackoffMs);
  return { kind: 'wait', waitMs: Math.round(backoffMs * (1 - random() * maxJitter)) };
}

/** The wait the provider asked for, in milliseconds; undefined when it asked for none (or nonsense). */
export function retryAfterMs(error: unknown, now: number): number | undefined {
  const milliseconds = Number.parseFloat(headerOf(error, 'retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const header = headerOf(error, 'retry-after')?.trim();
  if (header === undefined || header === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(header)) return Number.parseFloat(header) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Resolves after `waitMs` on `clock`, or rejects with a `StoppedError` the moment `signal` aborts (the
 * timer is cancelled, so a stopped run leaves nothing behind and sends no further request).
 */
export function waitBeforeRetry(clock: Clock, waitMs: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let removeListener = () => {};
    const cancelTimer = clock.setTimer(() => {
      removeListener();
      resolve();
    }, waitMs);
    removeListener = onAbort(signal, () => {
      cancelTimer();
      reject(new StoppedError(stopReasonOf(signal)));
    });
  });
}

/**
 * A response header off an SDK error: both SDKs keep the response's headers, which have a `get` (fetch's
 * `Headers`, or our transport's `ResponseHeaders`); a plain record is read too.
 */
function headerOf(error: unknown, name: string): string | undefined {
  const headers = (error as { headers?: unknown } | null)?.headers;
  if (hasGet(headers)) return headers.get(name) ?? undefined;
  if (typeof headers === 'object' && headers !== null) {
    const value = (headers as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

function hasGet(headers: unknown): headers is { get(name: string): string | null } {
  return typeof headers === 'object' && headers !== null && typeof (headers as { get?: unknown }).get === 'function';
}
