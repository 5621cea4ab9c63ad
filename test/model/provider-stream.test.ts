/**
 * The shared provider stream against an SDK that ignores its signal (a stream whose reads never settle):
 * a stop still ends every wait at once, which is what lets the model turn read it without a guard of its
 * own (`stopsAtOnce`).
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { StoppedError, type StopReason } from '../../src/engine/errors.js';
import { streamModelTurn } from '../../src/engine/agent/model-turn.js';
import type { ProviderFailureContext } from '../../src/engine/model/provider-failure-context.js';
import { readProviderStream } from '../../src/engine/model/provider-stream.js';
import { resolveRequestLimits } from '../../src/engine/model/request-limits.js';
import { type Model, type ModelStreamEvent, stopsAtOnce } from '../../src/engine/model/types.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { abortListenerCount } from '../agent/support.js';

/** A raw event is a text delta; the stream never ends and never settles its next read. */
const textReader = () => ({
  complete: false,
  accept: (text: string): ModelStreamEvent[] => [{ type: 'text-delta', text }],
  end: (): ModelStreamEvent[] => [],
});

function deafStream(first: string[]): AsyncIterable<string> {
  const queued = [...first];
  return {
    [Symbol.asyncIterator]: () => ({
      next: () =>
        queued.length > 0
          ? Promise.resolve({ done: false, value: queued.shift() as string })
          : new Promise<IteratorResult<string>>(() => {}),
    }),
  };
}

function streamOver(
  signal: AbortSignal,
  open: (attemptSignal: AbortSignal) => Promise<AsyncIterable<string>>,
  reader = textReader,
  clock = new ManualClock(),
) {
  const failure: ProviderFailureContext = {
    provider: 'openai',
    displayName: 'OpenAI',
    baseUrl: 'http://127.0.0.1:9',
    officialBaseUrl: false,
    apiKeyVariable: 'OPENAI_API_KEY',
    modelId: 'mock-model',
    maxRetries: 0,
    errorClasses: OpenAI,
    signal,
  };
  return readProviderStream(open, reader, failure, resolveRequestLimits({ clock, maxRetries: 0, timeoutMs: 5_000, idleTimeoutMs: 5_000 }));
}

const userStop: StopReason = { kind: 'user' };

describe('the provider stream', () => {
  it('ends a wait for an event at once when stopped, though the SDK never settles the read', async () => {
    const controller = new AbortController();
    const iterator = streamOver(controller.signal, async () => deafStream(['Partial']))[Symbol.asyncIterator]();
    expect((iterator as Partial<Record<typeof stopsAtOnce, boolean>>)[stopsAtOnce]).toBe(true);
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'Partial' });
    const next = iterator.next().catch((caught: unknown) => caught);
    controller.abort(userStop);
    const error = await next;
    expect(error).toBeInstanceOf(StoppedError);
    expect((error as StoppedError).reason).toEqual(userStop);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('ends the wait for the response to start at once when stopped', async () => {
    const controller = new AbortController();
    const iterator = streamOver(controller.signal, () => new Promise<AsyncIterable<string>>(() => {}))[Symbol.asyncIterator]();
    const next = iterator.next().catch((caught: unknown) => caught);
    controller.abort(userStop);
    expect(await next).toBeInstanceOf(StoppedError);
  });

  it('hands on nothing more once stopped, not even events it has read already', async () => {
    const controller = new AbortController();
    const twoAtOnce = () => ({
      ...textReader(),
      accept: (text: string): ModelStreamEvent[] => [
        { type: 'text-delta', text },
        { type: 'text-delta', text: `${text}, again` },
      ],
    });
    const iterator = streamOver(controller.signal, async () => deafStream(['One']), twoAtOnce)[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'One' });
    controller.abort(userStop);
    await expect(iterator.next()).rejects.toBeInstanceOf(StoppedError);
  });

  it('is read by the model turn without a guard of its own: the turn adds no listener to the run signal', async () => {
    const controller = new AbortController();
    let reading = () => {};
    const read = new Promise<void>((resolve) => (reading = resolve));
    const model: Model = {
      provider: 'openai',
      modelId: 'mock-model',
      stream: (request) => streamOver(request.signal, async () => deafStream(['Partial'])),
    };
    const turn = streamModelTurn(
      model,
      { system: '', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [] },
      controller.signal,
      () => reading(),
    );
    // The first event is in: the turn waits for the next one.
    await read;
    // The stream's own request link listens; the turn adds nothing per step.
    expect(abortListenerCount(controller.signal)).toBe(1);
    controller.abort(userStop);
    expect(await turn).toMatchObject({ text: 'Partial', end: { kind: 'stopped', reason: userStop } });
    expect(abortListenerCount(controller.signal)).toBe(0);
  });

  it("hands the SDK a signal of the attempt's own that a stop aborts with the stop's reason, one listener on the request's signal", async () => {
    const controller = new AbortController();
    let attemptSignal: AbortSignal | undefined;
    const iterator = streamOver(controller.signal, async (signal) => {
      attemptSignal = signal;
      return deafStream(['Partial']);
    })[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'Partial' });
    expect(attemptSignal).not.toBe(controller.signal);
    expect(abortListenerCount(controller.signal)).toBe(1);
    const next = iterator.next().catch((caught: unknown) => caught);
    controller.abort(userStop);
    expect(attemptSignal?.aborted).toBe(true);
    expect(attemptSignal?.reason).toEqual(userStop);
    expect(await next).toBeInstanceOf(StoppedError);
    expect(abortListenerCount(controller.signal)).toBe(0);
  });

  it("closes the attempt's signal when the response does not start in time or stalls, and lets go of the request's signal", async () => {
    for (const stall of ['response-start', 'idle'] as const) {
      const clock = new ManualClock();
      const controller = new AbortController();
      let attemptSignal: AbortSignal | undefined;
      const iterator = streamOver(
        controller.signal,
        (signal) => {
          attemptSignal = signal;
          return stall === 'idle' ? Promise.resolve(deafStream([])) : new Promise<AsyncIterable<string>>(() => {});
        },
        textReader,
        clock,
      )[Symbol.asyncIterator]();
      const next = iterator.next().catch((caught: unknown) => caught);
      await clock.advance(4_999);
      expect(attemptSignal?.aborted).toBe(false);
      // The attempt's listener, and while the response has not started, that wait's own.
      expect(abortListenerCount(controller.signal)).toBe(stall === 'idle' ? 1 : 2);
      await clock.advance(1);
      expect(attemptSignal?.aborted).toBe(true);
      expect((attemptSignal?.reason as Error).message).toBe('the request was closed');
      expect(await next).toMatchObject({ name: 'ProviderError', kind: 'timeout' });
      expect(abortListenerCount(controller.signal)).toBe(0);
      expect(controller.signal.aborted).toBe(false);
    }
  });

  it("aborts the attempt's signal at once when the request is stopped already", async () => {
    const controller = new AbortController();
    controller.abort(userStop);
    let opened = false;
    const iterator = streamOver(controller.signal, async () => {
      opened = true;
      return deafStream([]);
    })[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toBeInstanceOf(StoppedError);
    expect(opened).toBe(false);
    expect(abortListenerCount(controller.signal)).toBe(0);
  });
});
