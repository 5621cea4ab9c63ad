import type { Clock } from '../clock.js';
import { StoppedError, stopReasonOf } from '../errors.js';
import type { ModelMessage, ModelRequest, ModelStreamEvent, Usage } from '../model/types.js';
import { onAbort } from '../abort.js';
import { HeldStep, text, type ScriptedCall, type ScriptedEvent, type ScriptStep } from './scripted-steps.js';

/** How the scripted model plays a step back: the ids it gives, the waits it makes, what its errors quote. */

export function withoutSignal(request: ModelRequest): Omit<ModelRequest, 'signal'> {
  const { signal: _signal, ...rest } = request;
  return rest;
}

export function assignIds(events: readonly ScriptedEvent[], call: ScriptedCall): ModelStreamEvent[] {
  let toolIndex = 0;
  return events.map((event) => {
    if (event.type !== 'tool-call') return { ...event };
    const toolCallId = event.toolCallId ?? `call_${call.number}_${toolIndex}`;
    toolIndex += 1;
    return { ...event, toolCallId };
  });
}

export function isFailingStep(step: ScriptStep): step is Extract<ScriptStep, { kind: 'fail' }> {
  return typeof step === 'object' && !Array.isArray(step) && (step as { kind?: unknown }).kind === 'fail';
}

export function waitOn(clock: Clock, delayMs: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new StoppedError(stopReasonOf(signal)));
    const cancelTimer = clock.setTimer(() => {
      stopWatching();
      resolve();
    }, delayMs);
    const stopWatching = onAbort(signal, () => {
      cancelTimer();
      reject(new StoppedError(stopReasonOf(signal)));
    });
  });
}

/** A one-line summary of a message for the unexpected-call error, so the failing test says where it was. */
export function describeMessage(message: ModelMessage | undefined): string {
  if (!message) return '(none)';
  const parts = message.content.map((part) => {
    switch (part.type) {
      case 'text':
        return JSON.stringify(part.text);
      case 'tool-call':
        return `[tool-call ${part.toolName} ${JSON.stringify(part.input)}]`;
      case 'tool-result':
        return `[tool-result ${part.toolName}${part.isError ? ' (error)' : ''}: ${JSON.stringify(part.output)}]`;
    }
  });
  const summary = `${message.role}: ${parts.join(' ')}`;
  return summary.length > 400 ? `${summary.slice(0, 400)}…` : summary;
}

/** What one call plays: events, maybe a hold with more events after it, maybe a final throw. */
export interface Playback {
  before: ModelStreamEvent[];
  hold?: HeldStep;
  after: ModelStreamEvent[];
  failure?: { error: unknown };
}

export function toPlayback(step: ScriptStep, request: ModelRequest, call: ScriptedCall, defaultUsage: Usage | null | undefined): Playback {
  if (typeof step === 'function') return toPlayback(step(request, call), request, call, defaultUsage);
  if (typeof step === 'string') return { before: completeEvents([text(step)], call, defaultUsage), after: [] };
  if (step instanceof Error) return { before: [], after: [], failure: { error: step } };
  if (step instanceof HeldStep) {
    const events = completeEvents([...step.before, ...step.after], call, defaultUsage);
    return { before: events.slice(0, step.before.length), hold: step, after: events.slice(step.before.length) };
  }
  if (isFailingStep(step)) return { before: assignIds(step.before, call), after: [], failure: { error: step.error } };
  return { before: completeEvents(step, call, defaultUsage), after: [] };
}

/** Adds what a real stream always has: tool call ids, a usage event, a finish event. */
function completeEvents(events: readonly ScriptedEvent[], call: ScriptedCall, defaultUsage: Usage | null | undefined): ModelStreamEvent[] {
  const completed = assignIds(events, call);
  const usage = defaultUsage === undefined ? { inputTokens: 10, outputTokens: 5 } : defaultUsage;
  if (usage && !completed.some((event) => event.type === 'usage')) {
    const finishIndex = completed.findIndex((event) => event.type === 'finish');
    completed.splice(finishIndex === -1 ? completed.length : finishIndex, 0, { type: 'usage', usage: { ...usage } });
  }
  if (!completed.some((event) => event.type === 'finish')) {
    const hasToolCalls = completed.some((event) => event.type === 'tool-call');
    completed.push({ type: 'finish', stopReason: hasToolCalls ? 'tool-use' : 'end-turn' });
  }
  return completed;
}

/**
 * The events of a step with no wait, no hold and no failure, as a written-out stream: what `play` does for
 * them, without an async generator's promises. The signal is watched from the first read (a stop marks the
 * call) until the stream ends or is closed; a read after a stop rejects with its `StoppedError`.
 */
export function playEvents(
  events: readonly ModelStreamEvent[],
  signal: AbortSignal,
  call: ScriptedCall,
): AsyncIterableIterator<ModelStreamEvent> {
  let index = 0;
  let state: 'new' | 'playing' | 'done' = 'new';
  let stopWatching = () => {};
  const finish = (): IteratorResult<ModelStreamEvent> => {
    if (state === 'playing') stopWatching();
    state = 'done';
    return { done: true, value: undefined };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      if (state === 'done') return Promise.resolve({ done: true, value: undefined });
      if (state === 'new') {
        state = 'playing';
        stopWatching = onAbort(signal, () => {
          call.aborted = true;
          call.stopReason = stopReasonOf(signal);
        });
      }
      if (index >= events.length) return Promise.resolve(finish());
      if (signal.aborted) {
        finish();
        return Promise.reject(new StoppedError(stopReasonOf(signal)));
      }
      return Promise.resolve({ done: false, value: events[index++] as ModelStreamEvent });
    },
    return() {
      return Promise.resolve(finish());
    },
  };
}
