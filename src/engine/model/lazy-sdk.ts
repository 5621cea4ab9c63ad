/**
 * A provider's SDK, loaded on the first request rather than when the model is made: evaluating an SDK
 * costs more than the rest of the extension's activation (B5 in docs/performance.md).
 */
export class LazySdk<Sdk> {
  private loading?: Promise<Sdk>;
  private loaded?: Sdk;

  constructor(private readonly load: () => Promise<Sdk>) {}

  /**
   * The stream `read` makes with the SDK. Once the SDK is loaded that stream is returned as it is, not
   * wrapped in a generator that waits for the load: one async generator fewer for every event of every
   * response (B2 in docs/performance.md).
   */
  stream<Event>(read: (sdk: Sdk) => AsyncIterable<Event>): AsyncIterable<Event> {
    if (this.loaded !== undefined) return read(this.loaded);
    return this.streamOnceLoaded(read);
  }

  private async *streamOnceLoaded<Event>(read: (sdk: Sdk) => AsyncIterable<Event>): AsyncIterable<Event> {
    this.loading ??= this.load().then((sdk) => (this.loaded = sdk));
    yield* read(await this.loading);
  }
}
