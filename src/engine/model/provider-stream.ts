import { throwIfStopped } from '../util/abort.js';
import { incompleteStreamError, type ProviderFailureContext, toProviderFailure } from './provider-errors.js';
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
 * The part every adapter shares: open the SDK stream, translate its events, and turn every way it can end
 * badly into one error. The SDKs end their streams quietly when the signal aborts, so an aborted signal is
 * checked after the loop as well as in the error paths.
 */
export async function* readProviderStream<RawEvent>(
  open: () => Promise<AsyncIterable<RawEvent>>,
  reader: ProviderStreamReader<RawEvent>,
  failure: ProviderFailureContext,
): AsyncGenerator<ModelStreamEvent> {
  const { signal } = failure;
  throwIfStopped(signal);
  let events: AsyncIterable<RawEvent>;
  try {
    events = await open();
  } catch (error) {
    throw toProviderFailure(error, 'request', failure);
  }
  try {
    for await (const event of events) {
      for (const modelEvent of reader.accept(event)) yield modelEvent;
    }
  } catch (error) {
    throw toProviderFailure(error, 'stream', failure);
  }
  throwIfStopped(signal);
  if (!reader.complete) throw incompleteStreamError(failure, 'it closed without saying how the response ended');
  for (const modelEvent of reader.end()) yield modelEvent;
}
