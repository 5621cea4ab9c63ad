/**
 * Retries, retry waits and timeouts of the real SDKs over the mock provider, with time on an observed
 * manual clock: the test meets each timer as it is set and moves time itself.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, StoppedError, type StopReason } from '../../src/engine/errors.js';
import type { ModelStreamEvent } from '../../src/engine/model/types.js';
import {
  type MockProviderServer,
  delayed,
  hangingStream,
  rateLimited,
  serverError,
  startMockProviderServer,
  textTurn,
} from '../support/mock-provider/index.js';
import { ObservedClock } from '../support/observed-clock.js';
import { collect, collectUntilError, makeRequest, providerCases, textOf } from './model-harness.js';

const startTimeoutMs = 5_000;
const idleTimeoutMs = 2_000;

/** A 429 asking for `seconds` of patience (both headers, as the real APIs send them). */
function rateLimitedFor(seconds: number) {
  return rateLimited({ headers: { 'retry-after': String(seconds), 'retry-after-ms': String(seconds * 1000) } });
}

describe.each(providerCases)('$provider model: retry waits and timeouts', ({ provider, makeModel, baseUrlOf }) => {
  let server: MockProviderServer;
  let clock: ObservedClock;

  beforeEach(async () => {
    server = await startMockProviderServer();
    clock = new ObservedClock();
  });

  afterEach(async () => {
    await server.close();
  });

  const model = (maxRetries = 2) => makeModel(server, { clock, maxRetries, timeoutMs: startTimeoutMs, idleTimeoutMs, random: () => 0 });

  it('fails at once, saying so, when retry-after asks for more than 60 s: no second request', async () => {
    server.enqueue(rateLimitedFor(3600), textTurn('never reached'));
    const error = await collect(model().stream(makeRequest())).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ProviderError', kind: 'rate-limit', status: 429 });
    expect((error as Error).message).toContain(
      '(429, it asked to wait 3600 s before a retry, longer than the 60 s Agent Team waits): rate limit exceeded',
    );
    expect(server.requests).toHaveLength(1);
    expect(clock.pendingTimers).toBe(0);
  });

  it('does the same for a 503 whose retry-after is a date an hour away', async () => {
    const inAnHour = new Date(clock.now() + 3_600_000).toUTCString();
    server.enqueue(serverError(503, { headers: { 'retry-after': inAnHour, 'retry-after-ms': '' } }), textTurn('never reached'));
    const error = await collect(model().stream(makeRequest())).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'server', status: 503 });
    expect((error as Error).message).toMatch(/\(503, it asked to wait 3600 s before a retry, longer than the 60 s Agent Team waits\)/);
    expect(server.requests).toHaveLength(1);
  });

  it('waits the full retry-after of 60 s on its clock, then succeeds on the second request', async () => {
    server.enqueue(rateLimitedFor(60), textTurn('after the wait'));
    const events = collect(model().stream(makeRequest()));
    await clock.waitForTimer(60_000);
    expect(server.requests).toHaveLength(1);
    await clock.advance(60_000);
    expect(textOf(await events)).toBe('after the wait');
    expect(server.requests).toHaveLength(2);
  });

  it('backs off 0.5 s, then 1 s, without a retry-after, and gives up after maxRetries + 1 requests', async () => {
    const noRetryAfter = { headers: { 'retry-after': '', 'retry-after-ms': '' } };
    server.enqueue(serverError(502, noRetryAfter), serverError(502, noRetryAfter), serverError(502, noRetryAfter));
    const outcome = collect(model().stream(makeRequest())).catch((caught: unknown) => caught);
    await clock.waitForTimer(500);
    await clock.advance(500);
    await clock.waitForTimer(1_000);
    await clock.advance(1_000);
    const error = await outcome;
    expect(error).toMatchObject({ kind: 'server', status: 502 });
    expect((error as Error).message).toContain('(502, 3 attempts)');
    expect(server.requests).toHaveLength(3);
    expect(clock.delays.filter((delay) => delay !== startTimeoutMs)).toEqual([500, 1_000]);
  });

  it('ends a retry wait the moment the request is stopped: StoppedError, no timer left, no further request', async () => {
    server.enqueue(rateLimitedFor(50), textTurn('never reached'));
    const controller = new AbortController();
    const outcome = collectUntilError(model().stream(makeRequest({ signal: controller.signal })));
    await clock.waitForTimer(50_000);
    const reason: StopReason = { kind: 'user' };
    controller.abort(reason);
    const { error } = await outcome;
    expect(error).toBeInstanceOf(StoppedError);
    expect((error as StoppedError).reason).toEqual(reason);
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(120_000);
    expect(server.requests).toHaveLength(1);
    expect(server.pendingResponses).toBe(1);
  });

  it('closes a stream that stalls after its headers with a timeout error saying the provider stopped sending', async () => {
    server.enqueue(hangingStream({}));
    const outcome = collectUntilError(model(0).stream(makeRequest()));
    await server.waitForRequest(0);
    await clock.waitForTimer(idleTimeoutMs);
    await clock.advance(idleTimeoutMs);
    const { events, error } = await outcome;
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'timeout', code: 'provider-timeout', provider });
    expect((error as Error).message).toMatch(
      /stopped sending: nothing arrived for 2 s after the response had started \(no retries\), so the request was closed/,
    );
    await server.waitForClientClose(0);
    expect(server.closedRequests).toBe(1);
  });

  it('retries a stall before any output, and names the attempts when the retry stalls too', async () => {
    server.enqueue(hangingStream({}), hangingStream({}));
    const outcome = collectUntilError(model(1).stream(makeRequest()));
    await clock.waitForTimer(idleTimeoutMs);
    await clock.advance(idleTimeoutMs);
    await server.waitForClientClose(0);
    // Backoff before the retry (random 0: the full 0.5 s).
    await clock.waitForTimer(500);
    await clock.advance(500);
    await server.waitForRequest(1);
    await clock.waitForTimer(idleTimeoutMs, clock.timersSet(idleTimeoutMs) + 1);
    await clock.advance(idleTimeoutMs);
    const { error } = await outcome;
    expect(error).toMatchObject({ kind: 'timeout' });
    expect((error as Error).message).toContain('(2 attempts)');
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a stall once text was handed on, and keeps that text', async () => {
    server.enqueue(hangingStream({ text: ['Partial'] }), textTurn('never reached'));
    const iterator = model().stream(makeRequest())[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toEqual({ type: 'text-delta', text: 'Partial' } satisfies ModelStreamEvent);
    const next = iterator.next().catch((caught: unknown) => caught);
    await clock.advance(idleTimeoutMs);
    expect(await next).toMatchObject({ kind: 'timeout' });
    expect(server.requests).toHaveLength(1);
  });

  it('counts only the waits on the provider as idle: time the caller is busy with an event does not count', async () => {
    server.enqueue(hangingStream({ text: ['Partial'] }));
    const iterator = model(0).stream(makeRequest())[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'Partial' } satisfies ModelStreamEvent);
    // The caller keeps the event for almost the whole idle timeout before it asks for the next one.
    await clock.advance(idleTimeoutMs - 1);
    let settled = false;
    const next = iterator.next().then(
      () => (settled = true),
      (caught: unknown) => ((settled = true), caught),
    );
    await clock.advance(idleTimeoutMs - 1);
    expect(settled).toBe(false);
    await clock.advance(1);
    expect(await next).toMatchObject({ kind: 'timeout', code: 'provider-timeout' });
  });

  it('keeps one idle timer for a whole streamed response, not one per event', async () => {
    server.enqueue(textTurn('One', ' event', ' after', ' another', ' arrives'));
    const events = await collect(model().stream(makeRequest()));
    expect(textOf(events)).toBe('One event after another arrives');
    expect(clock.timersSet(idleTimeoutMs)).toBe(1);
    expect(clock.pendingTimers).toBe(0);
  });

  it('gives up on a provider that never sends its headers, with a timeout error, and closes the request', async () => {
    server.enqueue(delayed(textTurn('an hour later'), new Promise(() => {})));
    const outcome = collectUntilError(model(0).stream(makeRequest()));
    await server.waitForRequest(0);
    await clock.waitForTimer(startTimeoutMs);
    await clock.advance(startTimeoutMs);
    const { error } = await outcome;
    expect(error).toMatchObject({ name: 'ProviderError', kind: 'timeout', provider });
    expect((error as Error).message).toBe(
      `${provider === 'anthropic' ? 'the Anthropic' : 'the OpenAI'}-compatible server at ${baseUrlOf(server)} did not start answering within 5 s (no retries), so the request was closed. Check the server at ${baseUrlOf(server)}, or raise the request timeout.`,
    );
    await server.waitForClientClose(0);
  });

  it('turns the idle timeout off with 0', async () => {
    server.enqueue(hangingStream({ text: ['Still thinking'] }));
    const controller = new AbortController();
    const stream = makeModel(server, { clock, idleTimeoutMs: 0 }).stream(makeRequest({ signal: controller.signal }));
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'text-delta' });
    const next = iterator.next().catch((caught: unknown) => caught);
    await clock.advance(24 * 3_600_000);
    controller.abort();
    expect(await next).toBeInstanceOf(StoppedError);
    expect(clock.delays.every((delay) => delay !== 0)).toBe(true);
  });
});
