import { AgentTeamError, StoppedError, stopReasonOf, type StopReason } from '../errors.js';
import { addUsage, zeroUsage, stopsAtOnce, type Model, type ModelRequest, type ModelStreamEvent, type Usage } from '../model/types.js';
import { onAbort } from '../abort.js';
import { ContextLengthError } from '../model/context-length-error.js';
import type { ToolCallEvent } from './tool-execution.js';

/** How a model turn ended. */
export type TurnEnd =
  | { kind: 'complete' }
  | { kind: 'stopped'; reason: StopReason }
  /** `contextLength`: the provider refused the request as too long for the window, with the sizes it named. */
  | { kind: 'failed'; message: string; contextLength?: { usedTokens?: number; windowTokens?: number } };

/** What one model turn produced, also when it ended early (partial text, calls streamed so far). */
export interface TurnOutput {
  text: string;
  toolCalls: ToolCallEvent[];
  /** The sum of the turn's `usage` events: each one counts as an increment. */
  usage: Usage;
  end: TurnEnd;
}

const aborted = Symbol('aborted');

/**
 * Streams one model turn. The request gets a signal linked to the run's, so stopping the run closes the
 * request; the loop also stops waiting at once, even for an adapter that ignores its signal.
 *
 * Expected failures (`AgentTeamError`s such as `ProviderError`) end the turn as `failed`; anything else is
 * a bug in the adapter (the `Model` contract says it throws `ProviderError` or `StoppedError`) and is thrown.
 * A `model-switch` (a failover) voids the text and tool calls streamed so far, keeps the usage (spent), and
 * is passed to `onModelSwitch`.
 */
export async function streamModelTurn(
  model: Model,
  request: Omit<ModelRequest, 'signal'>,
  runSignal: AbortSignal,
  onTextDelta: (text: string) => void,
  onModelSwitch: (model: string, notice: string) => void = () => {},
): Promise<TurnOutput> {
  const output: TurnOutput = { text: '', toolCalls: [], usage: zeroUsage, end: { kind: 'complete' } };
  // The run's signal goes to the adapter as it is: the turn never aborts on its own (a callback that
  // throws closes the stream through `return()`), so a linked controller per turn would only cost time.
  let iterator: AsyncIterator<ModelStreamEvent> | undefined;
  let steps: AbortableSteps<ModelStreamEvent> | undefined;
  let streamDone = false;
  try {
    iterator = model.stream({ ...request, signal: runSignal })[Symbol.asyncIterator]();
    // A stream that ends its waits at once on a stop by itself (our adapters') needs no guard per step.
    if ((iterator as Partial<Record<typeof stopsAtOnce, boolean>>)[stopsAtOnce] !== true) steps = new AbortableSteps(iterator, runSignal);
    for (;;) {
      const step = steps ? await steps.next() : await iterator.next();
      if (step === aborted) return { ...output, end: { kind: 'stopped', reason: stopReasonOf(runSignal) } };
      if (step.done) break;
      const event = step.value;
      switch (event.type) {
        case 'text-delta':
          output.text += event.text;
          onTextDelta(event.text);
          break;
        case 'tool-call':
          output.toolCalls.push(event);
          break;
        case 'usage':
          output.usage = addUsage(output.usage, event.usage);
          break;
        case 'finish':
          break;
        case 'model-switch':
          output.text = '';
          output.toolCalls = [];
          onModelSwitch(event.model, event.notice);
          break;
      }
    }
    streamDone = true;
    return output;
  } catch (error) {
    streamDone = true;
    if (runSignal.aborted) return { ...output, end: { kind: 'stopped', reason: stopReasonOf(runSignal) } };
    if (error instanceof StoppedError) return { ...output, end: { kind: 'stopped', reason: error.reason } };
    if (error instanceof ContextLengthError) {
      return {
        ...output,
        end: {
          kind: 'failed',
          message: error.message,
          contextLength: {
            ...(error.usedTokens ? { usedTokens: error.usedTokens } : {}),
            ...(error.windowTokens ? { windowTokens: error.windowTokens } : {}),
          },
        },
      };
    }
    if (error instanceof AgentTeamError) return { ...output, end: { kind: 'failed', message: error.message } };
    throw error;
  } finally {
    // Left early (stopped, or a callback threw): let the adapter close its stream. Not awaited, since an
    // adapter stuck in a read would hold the run hostage.
    if (!streamDone) iterator?.return?.().catch(() => {});
    steps?.dispose();
  }
}

/**
 * An iterator's steps, each one cut short (`aborted`) as soon as the signal aborts. One listener on the
 * signal for the whole turn, not one added and removed for every event (B2 in docs/performance.md).
 */
class AbortableSteps<T> {
  private waiting?: (step: typeof aborted) => void;
  private readonly removeListener: () => void;

  constructor(
    private readonly iterator: AsyncIterator<T>,
    private readonly signal: AbortSignal,
  ) {
    this.removeListener = onAbort(signal, () => this.waiting?.(aborted));
  }

  next(): Promise<IteratorResult<T> | typeof aborted> {
    if (this.signal.aborted) return Promise.resolve(aborted);
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      // A late rejection after an abort lands here, on a settled promise, so it is never unhandled.
      this.iterator.next().then(resolve, reject);
    });
  }

  dispose(): void {
    this.waiting = undefined;
    this.removeListener();
  }
}
