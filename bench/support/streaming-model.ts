/**
 * A model that streams one answer in timed chunks, as a provider does, and notes when each chunk left
 * it: B16 times from there to the words being on screen. Each chunk carries a marker (`w17 `) that is
 * found again in the sidebar's DOM and in the CLI's output. Chunks wait for `begin()` so the bench can set
 * up what watches (a selected row, a terminal) before the first one.
 */
import type { Model, ModelRequest, ModelStreamEvent } from '../../src/engine/model/types.js';
import { now } from './stats.js';

export class StreamingModel implements Model {
  readonly provider = 'scripted';
  readonly modelId = 'streaming';
  /** The text of each chunk streamed so far, in order. */
  readonly chunks: string[] = [];
  /** When each chunk was handed to the engine (`now()`). */
  readonly chunkTimes: number[] = [];
  private released: () => void = () => undefined;
  private readonly started = new Promise<void>((resolve) => {
    this.released = resolve;
  });

  /** `chunkCount` chunks of a few words, `gapMs` apart (a provider streams tokens every 10-50 ms). */
  constructor(
    private readonly chunkCount: number,
    private readonly gapMs: number,
  ) {}

  /** Lets the chunks flow. */
  begin(): void {
    this.released();
  }

  /** The marker of chunk `index`: unique, and unlike anything else on screen. */
  static marker(index: number): string {
    return `w${index}q`;
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    await this.started;
    for (let index = 0; index < this.chunkCount; index++) {
      if (index > 0) await new Promise((resolve) => setTimeout(resolve, this.gapMs));
      if (request.signal.aborted) throw new Error('stopped');
      const text = `${StreamingModel.marker(index)} words `;
      this.chunks.push(text);
      this.chunkTimes.push(now());
      yield { type: 'text-delta', text };
    }
    yield { type: 'usage', usage: { inputTokens: 100, outputTokens: this.chunkCount * 3 } };
    yield { type: 'finish', stopReason: 'end-turn' };
  }
}

/** From each chunk to the first moment its marker was seen (`seenAt[index]`); throws on one never seen. */
export function latenciesOf(model: StreamingModel, seenAt: ReadonlyMap<number, number>): number[] {
  return model.chunkTimes.map((sentAt, index) => {
    const seen = seenAt.get(index);
    if (seen === undefined) throw new Error(`chunk ${index} (${StreamingModel.marker(index)}) never appeared`);
    return seen - sentAt;
  });
}
