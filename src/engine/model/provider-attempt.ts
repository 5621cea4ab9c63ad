import { StoppedError, stopReasonOf } from '../errors.js';
import { IdleWatch } from './idle-watch.js';
import type { ProviderRequestLimits } from './request-limits.js';
import { withinTimeout } from './response-timeout.js';
import type { ModelStreamEvent } from './types.js';

/** Turns one provider's raw stream events into neutral events, and knows when the response is whole. */
export interface ProviderStreamReader<RawEvent> {
  accept(event: RawEvent): ModelStreamEvent[];
  /** Events still owed once the raw stream has ended (usage, finish). */
  end(): ModelStreamEvent[];
  /** True once the provider said how the response ended. */
  readonly complete: boolean;
}

/**
 * One request to the provider (readProviderStream makes one per try): its own signal under the
 * request's, which a timeout or the caller's leaving aborts to close it; the SDK's stream once the
 * response has started (within `timeoutMs`); each of that stream's events waited for within
 * `idleTimeoutMs` (`IdleWatch`). A stop of the request ends whichever wait is under way at once, with a
 * `StoppedError`, whether or not the SDK notices the abort.
 */
export class ProviderAttempt<RawEvent> {
  readonly reader: ProviderStreamReader<RawEvent>;
  /** The attempt's own signal, handed to the SDK: aborted with the request's, or by a close (a timeout, a leave). */
  private readonly controller = new AbortController();
  private events?: AsyncIterator<RawEvent>;
  private watch?: IdleWatch;
  private left = false;

  constructor(
    private readonly requestSignal: AbortSignal,
    createReader: () => ProviderStreamReader<RawEvent>,
    private readonly limits: ProviderRequestLimits,
  ) {
    this.reader = createReader();
    // One listener on the request's signal does both what a stop asks of the attempt: abort its own signal
    // and end the wait under way. (A linked child signal cost a second controller's worth of listeners
    // per attempt: one on each side to unlink, one on the child for the stop; B2 in docs/performance.md.)
    if (requestSignal.aborted) this.controller.abort(requestSignal.reason);
    else requestSignal.addEventListener('abort', this.stopped, { once: true });
  }

  /** True once the response has started: its events can be read. */
  get started(): boolean {
    return this.events !== undefined;
  }

  /** Sends the request and waits for the response to start; throws how it failed. */
  async start(open: (signal: AbortSignal) => Promise<AsyncIterable<RawEvent>>): Promise<void> {
    const started = Promise.resolve().then(() => open(this.controller.signal));
    const events = await withinTimeout(
      started,
      { clock: this.limits.clock, timeoutMs: this.limits.timeoutMs, phase: 'response-start', signal: this.requestSignal },
      this.closeRequest,
    );
    if (this.left) {
      // Left while the request started: this stream was never handed on, so close it here.
      events[Symbol.asyncIterator]()
        .return?.()
        .catch(() => {});
      return;
    }
    this.events = events[Symbol.asyncIterator]();
    this.watch = new IdleWatch(this.limits.clock, this.limits.idleTimeoutMs, this.closeRequest);
  }

  /** The SDK stream's next raw event, within the idle timeout. Only once `started`. */
  next(): Promise<IteratorResult<RawEvent>> {
    return (this.watch as IdleWatch).wait((this.events as AsyncIterator<RawEvent>).next());
  }

  /**
   * Ends the attempt; one that did not end by itself has its request closed and its stream returned (not
   * awaited: a read stuck in the SDK must not hold the caller). Only the first call counts: an attempt
   * left while a read was under way is left again when that read fails.
   */
  leave(endedByItself: boolean): void {
    if (this.left) return;
    this.left = true;
    this.watch?.dispose();
    if (!endedByItself) {
      this.closeRequest();
      this.events?.return?.().catch(() => {});
    }
    this.unlink();
  }

  /** Closes the request (a timeout, a leave): its own signal aborts, and a later stop no longer concerns it. */
  private readonly closeRequest = (): void => {
    this.unlink();
    this.controller.abort(new Error('the request was closed'));
  };

  private unlink(): void {
    this.requestSignal.removeEventListener('abort', this.stopped);
  }

  // The wait ends first, with the stop, before the SDK hears of it through the attempt's signal: as before,
  // when the attempt's signal was a linked child and this listener its first.
  private readonly stopped = (): void => {
    this.watch?.interrupt(new StoppedError(stopReasonOf(this.requestSignal)));
    this.controller.abort(this.requestSignal.reason);
  };
}
