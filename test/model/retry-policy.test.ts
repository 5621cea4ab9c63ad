import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { StoppedError } from '../../src/engine/errors.js';
import { RedirectRefused } from '../../src/engine/model/redirect-refused.js';
import { maxRetryAfterMs } from '../../src/engine/model/request-limits.js';
import { ResponseTimeout } from '../../src/engine/model/response-timeout.js';
import { isRetryableFailure, retryAfterMs, retryWait, waitBeforeRetry } from '../../src/engine/model/retry-policy.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';

function statusError(status: number, headers: Record<string, string> = {}): Error {
  return Anthropic.APIError.generate(status, { type: 'error', error: { type: 'x', message: 'm' } }, undefined, new Headers(headers));
}

describe('retry policy', () => {
  it('retries what the SDKs retry, obeys x-should-retry, and never retries a client error or a bug', () => {
    const retryable = (error: unknown, phase: 'request' | 'stream' = 'request') => isRetryableFailure({ error, phase }, Anthropic);
    expect([408, 409, 429, 500, 503, 529].map((status) => retryable(statusError(status)))).toEqual([true, true, true, true, true, true]);
    expect([400, 401, 403, 404, 422].map((status) => retryable(statusError(status)))).toEqual([false, false, false, false, false]);
    expect(retryable(statusError(500, { 'x-should-retry': 'false' }))).toBe(false);
    expect(retryable(statusError(400, { 'x-should-retry': 'true' }))).toBe(true);
    expect(retryable(new Anthropic.APIConnectionError({ message: 'refused' }))).toBe(true);
    // The same answer comes back every time: a certificate TLS refused, a redirect the transport refused.
    const untrusted = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(retryable(new Anthropic.APIConnectionError({ message: 'Connection error.', cause: untrusted }))).toBe(false);
    const redirected = new RedirectRefused(new URL('http://127.0.0.1:1/v1/messages'), 308, 'https://elsewhere.example/');
    expect(retryable(new Anthropic.APIConnectionError({ message: 'Connection error.', cause: redirected }))).toBe(false);
    expect(retryable(new ResponseTimeout('idle', 1000), 'stream')).toBe(true);
    expect(retryable(new TypeError('terminated'), 'stream')).toBe(true);
    expect(retryable(new Anthropic.APIUserAbortError())).toBe(false);
    expect(retryable(new Error('a bug of ours'))).toBe(false);
  });

  it('reads retry-after-ms, retry-after in seconds and as a date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs(statusError(429, { 'retry-after-ms': '1500' }), now)).toBe(1500);
    expect(retryAfterMs(statusError(429, { 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(statusError(429, { 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterMs(statusError(429, { 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(statusError(429, { 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(statusError(429), now)).toBeUndefined();
  });

  it('honours a retry-after up to 60 s and refuses a longer one', () => {
    const clock = new ManualClock();
    expect(maxRetryAfterMs).toBe(60_000);
    expect(retryWait(statusError(429, { 'retry-after': '60' }), 1, clock, () => 0)).toEqual({ kind: 'wait', waitMs: 60_000 });
    expect(retryWait(statusError(429, { 'retry-after': '61' }), 1, clock, () => 0)).toEqual({ kind: 'refused', askedMs: 61_000 });
  });

  it('backs off exponentially up to 8 s, with up to 25 % jitter from the injected random', () => {
    const clock = new ManualClock();
    const waits = (random: number) => [1, 2, 3, 4, 5, 6].map((retry) => retryWait(statusError(500), retry, clock, () => random));
    expect(waits(0).map((wait) => (wait.kind === 'wait' ? wait.waitMs : -1))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect(waits(0.5).map((wait) => (wait.kind === 'wait' ? wait.waitMs : -1))).toEqual([438, 875, 1750, 3500, 7000, 7000]);
  });

  it('waits on the clock, and a stop ends the wait at once with its reason and cancels the timer', async () => {
    const clock = new ManualClock();
    let waited = false;
    const done = waitBeforeRetry(clock, 30_000, new AbortController().signal).then(() => (waited = true));
    await clock.advance(29_999);
    expect(waited).toBe(false);
    await clock.advance(1);
    await done;
    expect(waited).toBe(true);

    const controller = new AbortController();
    const stopped = waitBeforeRetry(clock, 30_000, controller.signal).catch((error: unknown) => error);
    controller.abort({ kind: 'shutdown' });
    const error = await stopped;
    expect(error).toBeInstanceOf(StoppedError);
    expect((error as StoppedError).reason).toEqual({ kind: 'shutdown' });
    expect(clock.pendingTimers).toBe(0);
  });
});
