/**
 * B3's floor: the bare SDK stopping a stream it is reading, with nothing of ours in between. The same
 * mock server (in a process of its own) streams a little text and holds the stream open; once the first text has arrived the
 * request's AbortController is aborted, and the time to the server seeing the request closed is taken.
 * That is what Node, the SDK and the server need to stop a request on this machine at this moment:
 * B3's figure is shown beside it, measured in the same run.
 */
import { systemClock } from '../../src/engine/clock.js';
import { withDeadline } from '../../src/engine/deadline.js';
import type { ModelProvider } from '../../src/engine/model/create-model.js';
import { absoluteNow, type MockServerProcess } from './mock-server-process.js';

/** What B3's mock server says before it holds each stream open. */
export const hangingText = ['Looking at ', 'the parser'];

/** `promise`, or an error saying `what` after ten seconds: a close that never comes must not hang the run. */
export function withinTenSeconds<Value>(promise: Promise<Value>, what: string): Promise<Value> {
  return withDeadline(promise, {
    clock: systemClock,
    timeoutMs: 10_000,
    expire: () => {
      throw new Error(what);
    },
  });
}

/** `rounds` stops of a bare SDK stream; resolves with each one's milliseconds from `abort()` to the server seeing the request closed. */
export async function bareSdkStopTimes(provider: ModelProvider, server: MockServerProcess, rounds: number): Promise<number[]> {
  const stream = provider === 'openai' ? await openaiStream(server) : await anthropicStream(server);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const controller = new AbortController();
    const reading = stream(`Find where dates are parsed (${round}).`, controller.signal);
    await reading.firstText;
    const closed = withinTenSeconds(server.latestRequestClosed(), 'the server never saw a bare SDK request closed');
    const start = absoluteNow();
    controller.abort();
    const closedAt = await closed;
    await reading.done;
    times.push(closedAt - start);
  }
  return times;
}

/** A streaming request: `firstText` resolves when the first text arrives, `done` when the reading loop has ended (aborted). */
type StartStream = (prompt: string, signal: AbortSignal) => { firstText: Promise<void>; done: Promise<void> };

function reader(iterate: (onText: () => void) => Promise<void>): { firstText: Promise<void>; done: Promise<void> } {
  let markFirst: () => void = () => undefined;
  const firstText = new Promise<void>((resolve) => (markFirst = resolve));
  const done = iterate(() => markFirst()).catch(() => undefined); // the abort ends it with an error: expected
  return { firstText, done };
}

async function openaiStream(server: MockServerProcess): Promise<StartStream> {
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({ apiKey: 'bench-key', baseURL: server.openaiBaseUrl, maxRetries: 0 });
  return (prompt, signal) =>
    reader(async (onText) => {
      const chunks = await client.chat.completions.create(
        { model: 'mock-model', messages: [{ role: 'user', content: prompt }], stream: true },
        { signal },
      );
      for await (const chunk of chunks) if (chunk.choices[0]?.delta?.content) onText();
    });
}

async function anthropicStream(server: MockServerProcess): Promise<StartStream> {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const client = new Anthropic({ apiKey: 'bench-key', baseURL: server.baseUrl, maxRetries: 0 });
  return (prompt, signal) =>
    reader(async (onText) => {
      const events = await client.messages.create(
        { model: 'mock-model', max_tokens: 1024, messages: [{ role: 'user', content: prompt }], stream: true },
        { signal },
      );
      for await (const event of events) if (event.type === 'content_block_delta') onText();
    });
}
