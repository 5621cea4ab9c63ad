import { throwIfStopped } from '../abort.js';
import { ProviderAttempt, type ProviderStreamReader } from './provider-attempt.js';
import { incompleteStreamError, toProviderFailure } from './provider-errors.js';
import type { ProviderFailureContext } from './provider-failure-context.js';
import type { ProviderRequestLimits } from './request-limits.js';
import { type AttemptFailure, isRetryableFailure, retryWait, waitBeforeRetry } from './retry-policy.js';
import { type ModelStreamEvent, stopsAtOnce } from './types.js';

/**
 * The part every adapter shares: open the SDK stream, translate its events, and turn every way it can end
 * badly into one error. A failure is tried again (up to `maxRetries`, after the provider's `retry-after`
 * or a backoff) only while nothing of the response has been handed on; every wait ends the moment the
 * request's signal aborts. `open` gets the attempt's own signal, which a timeout aborts to close it.
 *
 * Each attempt waits for the response to start within `timeoutMs`, then for each event within
 * `idleTimeoutMs` (`IdleWatch`: only while waiting on the provider, never while the caller is busy with an
 * event). The SDKs end their streams quietly when the signal aborts, so an aborted signal is checked once
 * a stream has ended as well.
 */
export function readProviderStream<RawEvent>(
  open: (signal: AbortSignal) => Promise<AsyncIterable<RawEvent>>,
  createReader: () => ProviderStreamReader<RawEvent>,
  failure: ProviderFailureContext,
  limits: ProviderRequestLimits,
): AsyncIterable<ModelStreamEvent> {
  return new ProviderStream(open, createReader, failure, limits);
}

const ended: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * An iterator written out rather than async generators: a generator per attempt delegated to by one for
 * the retries cost two generator steps, a timer and a promise for every event of every response (B2 in
 * docs/performance.md). Single use, as a generator is; unlike one, it expects its steps asked for one at a
 * time, as `for await` and the model turn ask.
 */
class ProviderStream<RawEvent> implements AsyncIterableIterator<ModelStreamEvent> {
  /** Every wait (the response's start, an event, a retry's pause) ends the moment the request is stopped. */
  readonly [stopsAtOnce] = true;
  private attempts = 0;
  private current: ProviderAttempt<RawEvent> | undefined;
  /** Translated events not yet handed on, from `queued` on. */
  private queue: ModelStreamEvent[] = [];
  private queued = 0;
  private handedOn = false;
  /** The response is whole (once `queue` is handed on), it failed, or the caller stopped reading. */
  private over = false;

  constructor(
    private readonly open: (signal: AbortSignal) => Promise<AsyncIterable<RawEvent>>,
    private readonly createReader: () => ProviderStreamReader<RawEvent>,
    private readonly failure: ProviderFailureContext,
    private readonly limits: ProviderRequestLimits,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<ModelStreamEvent>> {
    try {
      // The path of every event is this loop, in this one function: each async call and return between
      // the SDK's step and the caller's would add steps of its own to every event.
      for (;;) {
        if (this.over && this.queued >= this.queue.length) return ended;
        // Stopped: nothing more is handed on, not even events already read.
        throwIfStopped(this.failure.signal);
        if (this.queued < this.queue.length) {
          this.handedOn = true;
          return { done: false, value: this.queue[this.queued++] as ModelStreamEvent };
        }
        const attempt = this.current;
        if (attempt?.started !== true) {
          await this.startAttempt();
          continue;
        }
        let step: IteratorResult<RawEvent>;
        try {
          step = await attempt.next();
        } catch (error) {
          await this.attemptFailed(attempt, { error, phase: 'stream' });
          continue;
        }
        if (this.over) continue;
        if (!step.done) {
          this.enqueue(attempt.reader.accept(step.value));
          continue;
        }
        this.endAttempt(attempt, true);
        throwIfStopped(this.failure.signal);
        if (!attempt.reader.complete) {
          await this.attemptFailed(attempt, { error: new Error('it closed without saying how the response ended'), phase: 'incomplete' });
          continue;
        }
        this.enqueue(attempt.reader.end());
        this.over = true;
      }
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** The caller stopped reading: close the request. Not awaited: a read stuck in the SDK must not hold the caller. */
  async return(): Promise<IteratorResult<ModelStreamEvent>> {
    this.close();
    return ended;
  }

  private async startAttempt(): Promise<void> {
    throwIfStopped(this.failure.signal);
    this.attempts++;
    const attempt = new ProviderAttempt(this.failure.signal, this.createReader, this.limits);
    this.current = attempt;
    try {
      await attempt.start(this.open);
    } catch (error) {
      await this.attemptFailed(attempt, { error, phase: 'request' });
    }
  }

  /** Throws the failure as the caller sees it, or waits before the next attempt. */
  private async attemptFailed(attempt: ProviderAttempt<RawEvent>, failed: AttemptFailure): Promise<void> {
    this.endAttempt(attempt, false);
    if (this.over) return;
    throwIfStopped(this.failure.signal);
    const context: ProviderFailureContext = { ...this.failure, attempts: this.attempts };
    const retryable = !this.handedOn && this.attempts <= this.limits.maxRetries && isRetryableFailure(failed, this.failure.errorClasses);
    if (!retryable) throw mapFailure(failed, context);
    const wait = retryWait(failed.error, this.attempts, this.limits.clock, this.limits.random);
    if (wait.kind === 'refused') throw mapFailure(failed, { ...context, refusedWaitMs: wait.askedMs });
    await waitBeforeRetry(this.limits.clock, wait.waitMs, this.failure.signal);
  }

  private enqueue(events: ModelStreamEvent[]): void {
    this.queue = events;
    this.queued = 0;
  }

  private endAttempt(attempt: ProviderAttempt<RawEvent>, endedByItself: boolean): void {
    if (this.current === attempt) this.current = undefined;
    attempt.leave(endedByItself);
  }

  private close(): void {
    this.over = true;
    this.queue = [];
    this.queued = 0;
    if (this.current) this.endAttempt(this.current, false);
  }
}

function mapFailure(end: AttemptFailure, context: ProviderFailureContext): unknown {
  if (end.phase === 'incomplete') return incompleteStreamError(context, (end.error as Error).message);
  return toProviderFailure(end.error, end.phase, context);
}
