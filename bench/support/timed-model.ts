/**
 * A model wrapper that times what the engine does around the model: when each request arrives, and how
 * long the model itself waited. The wait is a fixed delay per turn, as a provider's latency is: the
 * event loop goes idle between turns, so work the engine parks on timers or leaves for later shows in the
 * wall time. Only the measured wait counts as the model's time (a late timer is the model's, not the
 * engine's); the time the engine spends handling the streamed events stays on the engine's side.
 */
import type { Model, ModelRequest, ModelStreamEvent } from '../../src/engine/model/types.js';
import { now } from './stats.js';

export class TimedModel implements Model {
  readonly provider: string;
  readonly modelId: string;
  /** When each request arrived (`now()`), in order. */
  readonly requestTimes: number[] = [];
  /** The model's own time so far: the delays, as measured. */
  modelMs = 0;

  /** `delayMs`: the wait before each turn's first event. 0: none, no timer at all. */
  constructor(
    private readonly inner: Model,
    private readonly delayMs = 0,
  ) {
    this.provider = inner.provider;
    this.modelId = inner.modelId;
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.requestTimes.push(now());
    // Asked at once, so a model with no step for this call fails here, as the inner one would.
    const events = this.inner.stream(request);
    return this.delayMs > 0 ? this.delayed(events, request.signal) : events;
  }

  private async *delayed(events: AsyncIterable<ModelStreamEvent>, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
    const start = now();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.delayMs);
      signal.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
    });
    this.modelMs += now() - start;
    yield* events;
  }
}
