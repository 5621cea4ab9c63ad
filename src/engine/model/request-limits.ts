import { type Clock, systemClock } from '../clock.js';
import { nodeHttpFetch } from './http-transport.js';
import { defaults } from '../limits.js';

/**
 * How long and how often one model request may be tried: the options both adapters (and `ModelSettings`)
 * share, with their defaults. The engine enforces them itself, on an injectable clock, rather than
 * leaving them to the SDKs: a stop must cut every wait short, and tests drive time instead of sleeping.
 */
export interface ProviderRequestOptions {
  /**
   * Retries on 408, 409, 429, 5xx, connection errors, timeouts and streams that fail before any output.
   * Default 2; 0 turns them off. A `retry-after` up to 60 s is honoured; a longer one fails at once.
   */
  maxRetries?: number;
  /** How long one attempt may wait for the response to start (its headers). Default 600,000 ms (10 min). */
  timeoutMs?: number;
  /**
   * How long a started response may go without an event before it is closed as stalled. Default 300,000 ms
   * (5 min): reasoning models can think for minutes before their first token, and keep-alive comments
   * some proxies send are not events. 0 turns it off.
   */
  idleTimeoutMs?: number;
  /** Measures timeouts and retry waits. Default `systemClock`; tests pass a `ManualClock`. */
  clock?: Clock;
  /** The jitter of retry backoff, a number in [0, 1). Default `Math.random`. */
  random?: () => number;
}

// The one place of each: limits.ts.
export const defaultMaxRetries = defaults.modelMaxRetries;
export const defaultRequestTimeoutMs = defaults.modelRequestTimeoutMs;
export const defaultIdleTimeoutMs = defaults.modelIdleTimeoutMs;

/**
 * The longest `retry-after` the engine waits for. A provider asking for more fails the request at once,
 * with a message naming the wait it asked for: waiting a minute and asking again mostly meets the same
 * refusal, and a user who learns it now can decide (run later, run fewer tasks, use another key).
 */
export const maxRetryAfterMs = 60_000;

/** The options with every default filled in. */
export type ProviderRequestLimits = Required<ProviderRequestOptions>;

export function resolveRequestLimits(options: ProviderRequestOptions): ProviderRequestLimits {
  return {
    maxRetries: options.maxRetries ?? defaultMaxRetries,
    timeoutMs: options.timeoutMs ?? defaultRequestTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs ?? defaultIdleTimeoutMs,
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
  };
}

/**
 * How both adapters make their SDK's client, beside its key:
 * - no retries: they are ours (readProviderStream), as the SDKs' waits cannot all be cut short by a stop;
 * - the SDK's own timeout (it covers the same wait, up to the response headers) a minute past ours, so
 *   that ours fires first with its clearer message; it only matters if our clock never fires;
 * - its HTTP over Node's `http` module (`nodeHttpFetch`), which costs the thread about 40 % less a request
 *   than Node's fetch, and which follows no redirect: a model API never redirects a request, and following
 *   one would send the key on to wherever it points (the `x-api-key` header crosses origins).
 */
export function sdkClientOptions(baseUrl: string, limits: ProviderRequestLimits) {
  return {
    baseURL: baseUrl,
    maxRetries: 0,
    timeout: Math.min(limits.timeoutMs + 60_000, 2_147_483_647),
    fetch: nodeHttpFetch,
  };
}
