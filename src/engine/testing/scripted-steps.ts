import type { StopReason } from '../errors.js';
import type { ModelRequest, ModelStreamEvent, StopReasonFromModel, Usage } from '../model/types.js';
import { raceWithSignal } from '../abort.js';
import { createDeferred } from '../util/deferred.js';

type ToolCallEvent = Extract<ModelStreamEvent, { type: 'tool-call' }>;

/** A stream event as a script writes it: a tool call may leave its id to the model (`call_<call>_<index>`). */
export type ScriptedEvent =
  Exclude<ModelStreamEvent, { type: 'tool-call' }> | (Omit<ToolCallEvent, 'toolCallId'> & { toolCallId?: string });

/**
 * One scripted answer, used by exactly one model call:
 * - a string: a text answer;
 * - a list of events to stream (a `usage` and a `finish` event are added when missing);
 * - an `Error`: thrown when the call starts (e.g. a `ProviderError`);
 * - `fail(error, events)`: the events, then the error;
 * - `held(events, after)`: the events, then a wait until the test releases it or the request is aborted;
 * - a function of the request: the step to play, decided when the call comes.
 */
export type ScriptStep = string | readonly ScriptedEvent[] | Error | FailingStep | HeldStep | DynamicStep;

export type DynamicStep = (request: ModelRequest, call: ScriptedCall) => ScriptStep;

export interface FailingStep {
  kind: 'fail';
  before: readonly ScriptedEvent[];
  error: unknown;
}

/** One call the scripted model received. */
export interface ScriptedCall {
  /** 1 for the first call. */
  number: number;
  /** A deep copy of the request as it was sent, without its signal. */
  request: Omit<ModelRequest, 'signal'>;
  /** True once the request's signal was aborted while the call was being answered (or before it began). */
  aborted: boolean;
  /** The typed reason read off the aborted signal. */
  stopReason?: StopReason;
}

/**
 * A step that streams `before`, then waits until the test calls `release()` (then streams `after`) or the
 * request's signal aborts (then throws `StoppedError` with the signal's reason, as real adapters do).
 */
export class HeldStep {
  readonly kind = 'held';
  private readonly reachedGate = createDeferred();
  private readonly releaseGate = createDeferred();

  constructor(
    readonly before: readonly ScriptedEvent[],
    readonly after: readonly ScriptedEvent[],
  ) {}

  /** Resolves once `before` has been streamed and the step is waiting. */
  get reached(): Promise<void> {
    return this.reachedGate.promise;
  }

  release(): void {
    this.releaseGate.resolve();
  }

  /** Used by the scripted model: marks the hold reached and waits for release or abort. */
  async wait(signal: AbortSignal): Promise<void> {
    this.reachedGate.resolve();
    await raceWithSignal(this.releaseGate.promise, signal);
  }
}

export function text(value: string): ScriptedEvent {
  return { type: 'text-delta', text: value };
}

/** A well-formed tool call; without `toolCallId`, the model assigns `call_<call number>_<index>`. */
export function toolCall(toolName: string, input: unknown, toolCallId?: string): ScriptedEvent {
  return { type: 'tool-call', toolName, input, rawInput: JSON.stringify(input) ?? '', toolCallId };
}

/** A tool call whose input is not valid JSON, as an adapter reports it (input undefined, `inputError` set). */
export function invalidToolCall(toolName: string, rawInput: string, toolCallId?: string): ScriptedEvent {
  let reason = 'unparseable';
  try {
    JSON.parse(rawInput);
  } catch (error) {
    reason = error instanceof Error ? error.message : String(error);
  }
  return {
    type: 'tool-call',
    toolName,
    input: undefined,
    rawInput,
    inputError: `the tool input is not valid JSON (${reason})`,
    toolCallId,
  };
}

export function usage(inputTokens: number, outputTokens: number): ScriptedEvent {
  const value: Usage = { inputTokens, outputTokens };
  return { type: 'usage', usage: value };
}

export function finish(stopReason: StopReasonFromModel): ScriptedEvent {
  return { type: 'finish', stopReason };
}

export function fail(error: unknown, before: readonly ScriptedEvent[] = []): FailingStep {
  return { kind: 'fail', before, error };
}

export function held(before: readonly ScriptedEvent[], after: readonly ScriptedEvent[] = []): HeldStep {
  return new HeldStep(before, after);
}
