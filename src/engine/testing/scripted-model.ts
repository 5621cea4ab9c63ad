import { systemClock, type Clock } from '../clock.js';
import { stopReasonOf } from '../errors.js';
import { type Model, type ModelMessage, type ModelRequest, type ModelStreamEvent, type Usage, stopsAtOnce } from '../model/types.js';
import { onAbort, throwIfStopped } from '../abort.js';
import { fail, finish, held, invalidToolCall, text, toolCall, usage, type ScriptedCall, type ScriptStep } from './scripted-steps.js';
import { describeMessage, type Playback, playEvents, toPlayback, waitOn, withoutSignal } from './scripted-playback.js';

export type { ScriptedCall, ScriptedEvent, ScriptStep } from './scripted-steps.js';
export { HeldStep } from './scripted-steps.js';

export interface ScriptedModelOptions {
  /** Default `scripted`. */
  provider?: string;
  /** Default `scripted-model`. */
  modelId?: string;
  /** Streamed by every step that scripts no `usage` event of its own. Default 10 in / 5 out; null: none. */
  defaultUsage?: Usage | null;
  /** Keep a deep copy of every request in `calls`. Default true; benchmarks turn it off to measure the loop alone. */
  recordCalls?: boolean;
  /** Wait this long (on `clock`) before each step's first event. Default 0: zero latency, no timer at all. */
  latencyMs?: number;
  /** The clock `latencyMs` is measured on. Default: `systemClock`. */
  clock?: Clock;
}

/** Thrown when the model is called more often than the script has steps: a test's expectations broke. */
export class UnexpectedModelCallError extends Error {
  constructor(
    readonly callNumber: number,
    scriptedSteps: number,
    lastMessage: ModelMessage | undefined,
  ) {
    super(
      `ScriptedModel: unexpected model call #${callNumber}; the script had ${scriptedSteps} step(s). Last message: ${describeMessage(lastMessage)}`,
    );
    this.name = 'UnexpectedModelCallError';
  }
}

/**
 * A `Model` that answers from a queue of scripted steps, records every call, and fails loudly on a call it
 * has no step for. See `ScriptStep` for what a step can be.
 */
export class ScriptedModel implements Model {
  static readonly text = text;
  static readonly toolCall = toolCall;
  static readonly invalidToolCall = invalidToolCall;
  static readonly usage = usage;
  static readonly finish = finish;
  static readonly fail = fail;
  static readonly held = held;

  readonly provider: string;
  readonly modelId: string;
  /** Every call so far, in order (empty when `recordCalls` is off). */
  readonly calls: ScriptedCall[] = [];
  /** Steps in order; used ones are cleared, `nextStep` is the next to play (an index, as `shift` is O(n)). */
  private readonly steps: Array<ScriptStep | undefined>;
  private nextStep = 0;
  private readonly options: ScriptedModelOptions;
  private callCount = 0;

  constructor(steps: readonly ScriptStep[] = [], options: ScriptedModelOptions = {}) {
    this.steps = [...steps];
    this.options = options;
    this.provider = options.provider ?? 'scripted';
    this.modelId = options.modelId ?? 'scripted-model';
  }

  /** Steps not yet used. A test that expects the script to be used up checks that this is 0. */
  get remainingSteps(): number {
    return this.steps.length - this.nextStep;
  }

  /** Number of calls so far, also when `recordCalls` is off. */
  get callTotal(): number {
    return this.callCount;
  }

  enqueue(...steps: ScriptStep[]): this {
    this.steps.push(...steps);
    return this;
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.callCount += 1;
    const call: ScriptedCall = {
      number: this.callCount,
      request: this.options.recordCalls === false ? withoutSignal(request) : structuredClone(withoutSignal(request)),
      aborted: request.signal.aborted,
      stopReason: request.signal.aborted ? stopReasonOf(request.signal) : undefined,
    };
    if (this.options.recordCalls !== false) this.calls.push(call);
    const step = this.steps[this.nextStep];
    // Thrown here, synchronously, rather than from the stream, so no caller can mistake it for a provider's.
    if (step === undefined) throw new UnexpectedModelCallError(call.number, this.nextStep, request.messages.at(-1));
    this.steps[this.nextStep] = undefined;
    this.nextStep += 1;
    const playback = toPlayback(step, request, call, this.options.defaultUsage);
    // A step of events alone, played at once (what benchmarks script by the thousand), is read from a
    // written-out iterator, as the real adapters' streams are: an async generator costs several promises an
    // event, which B1 would count as the engine's (docs/performance.md).
    const plain = !playback.hold && !playback.failure && playback.after.length === 0 && !((this.options.latencyMs ?? 0) > 0);
    const stream = plain ? playEvents(playback.before, request.signal, call) : this.play(playback, request.signal, call);
    // Every wait of the playback races the signal (latency, held steps) and every event checks it: the
    // stream stops at once by itself, as the real adapters' do, so the agent loop needs no guard per step.
    return Object.assign(stream, { [stopsAtOnce]: true });
  }

  private async *play(playback: Playback, signal: AbortSignal, call: ScriptedCall): AsyncGenerator<ModelStreamEvent> {
    const stopWatching = onAbort(signal, () => {
      call.aborted = true;
      call.stopReason = stopReasonOf(signal);
    });
    try {
      const latencyMs = this.options.latencyMs ?? 0;
      if (latencyMs > 0) await waitOn(this.options.clock ?? systemClock, latencyMs, signal);
      for (const event of playback.before) {
        throwIfStopped(signal);
        yield event;
      }
      if (playback.hold) await playback.hold.wait(signal);
      for (const event of playback.after) {
        throwIfStopped(signal);
        yield event;
      }
      if (playback.failure) throw playback.failure.error;
    } finally {
      stopWatching();
    }
  }
}
