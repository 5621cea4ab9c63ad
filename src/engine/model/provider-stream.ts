import { throwIfStopped, linkAbort } from '../abort.js';
import { incompleteStreamError, type ProviderFailureContext, toProviderFailure } from './provider-errors.js';
import type { ProviderRequestLimits } from './request-limits.js';
import { withinTimeout } from './response-timeout.js';
import { type AttemptFailure, isRetryableFailure, retryWait, waitBeforeRetry } from './retry-policy.js';
import type { ModelStreamEvent } from './types.js';

/** Turns one provider's raw stream events into neutral events, and knows when the response is whole. */
export interface ProviderStreamReader<RawEvent> {
  accept(event: RawEvent): ModelStreamEvent[];
  /** Events still owed once the raw stream has ended (usage, finish). */
  end(): ModelStreamEvent[];
  /** True once the provider said how the response ended. */
  readonly complete: boolean;
}

/** How one attempt ended: whole, or failed (and whether any of its events were already handed on). */
type AttemptEnd = { kind: 'complete' } | (AttemptFailure & { kind: 'failed'; handedOn: boolean });

/**
 * The part every adapter shares: open the SDK stream, translate its events, and turn every way it can end
 * badly into one error. A failure is tried again (up to `maxRetries`, after the provider's `retry-after`
 * or a backoff) only while nothing of the response has been handed on; every wait ends the moment the
 * request's signal aborts. `open` gets the attempt's own signal, which a timeout aborts to close it.
 */
export async function* readProviderStream<RawEvent>(
  open: (signal: AbortSignal) => Promise<AsyncIterable<RawEvent>>,
  createReader: () => ProviderStreamReader<RawEvent>,
  failure: ProviderFailureContext,
  limits: ProviderRequestLimits,
): AsyncGenerator<ModelStreamEvent> {
  const { signal } = failure;
  for (let attempt = 1; ; attempt++) {
    throwIfStopped(signal);
    const end = yield* streamAttempt(open, createReader(), limits, signal);
    if (end.kind === 'complete') return;
    throwIfStopped(signal);
    const context: ProviderFailureContext = { ...failure, attempts: attempt };
    const retryable = !end.handedOn && attempt <= limits.maxRetries && isRetryableFailure(end, failure.errorClasses);
    if (!retryable) throw mapFailure(end, context);
    const wait = retryWait(end.error, attempt, limits.clock, limits.random);
    if (wait.kind === 'refused') throw mapFailure(end, { ...context, refusedWaitMs: wait.askedMs });
    await waitBeforeRetry(limits.clock, wait.waitMs, signal);
  }
}

/**
 * One request: waits for the response to start within `timeoutMs`, then for each event within
 * `idleTimeoutMs`. The SDKs end their streams quietly when the signal aborts, so an aborted signal is
 * checked after the loop as well. The idle timer runs only while waiting on the provider, never while the
 * caller is busy with an event.
 */
async function* streamAttempt<RawEvent>(
  open: (signal: AbortSignal) => Promise<AsyncIterable<RawEvent>>,
  reader: ProviderStreamReader<RawEvent>,
  limits: ProviderRequestLimits,
  requestSignal: AbortSignal,
): AsyncGenerator<ModelStreamEvent, AttemptEnd> {
  const attempt = linkAbort(requestSignal);
  const closeRequest = () => attempt.abort(new Error('the request was closed'));
  let iterator: AsyncIterator<RawEvent> | undefined;
  let finished = false;
  let handedOn = false;
  try {
    let events: AsyncIterable<RawEvent>;
    try {
      const started = Promise.resolve().then(() => open(attempt.signal));
      events = await withinTimeout(started, { clock: limits.clock, timeoutMs: limits.timeoutMs, phase: 'response-start' }, closeRequest);
    } catch (error) {
      return { kind: 'failed', error, phase: 'request', handedOn };
    }
    iterator = events[Symbol.asyncIterator]();
    try {
      for (;;) {
        const step = await withinTimeout(iterator.next(), { clock: limits.clock, timeoutMs: limits.idleTimeoutMs, phase: 'idle' }, closeRequest);
        if (step.done) break;
        for (const event of reader.accept(step.value)) {
          handedOn = true;
          yield event;
        }
      }
    } catch (error) {
      return { kind: 'failed', error, phase: 'stream', handedOn };
    }
    finished = true;
    throwIfStopped(requestSignal);
    if (!reader.complete) {
      return { kind: 'failed', error: new Error('it closed without saying how the response ended'), phase: 'incomplete', handedOn };
    }
    for (const event of reader.end()) yield event;
    return { kind: 'complete' };
  } finally {
    // Left early (a failure, a timeout, a caller that stopped reading): close the request. Not awaited:
    // a read stuck in the SDK must not hold the caller.
    if (!finished) {
      closeRequest();
      iterator?.return?.().catch(() => {});
    }
    attempt.dispose();
  }
}

function mapFailure(end: AttemptFailure, context: ProviderFailureContext): unknown {
  if (end.phase === 'incomplete') return incompleteStreamError(context, (end.error as Error).message);
  return toProviderFailure(end.error, end.phase, context);
}
