/**
 * One tool call under the run's signal and the call's timeout, through withDeadline (deadline.ts), the
 * engine's one deadline: what the call came to, for tool-execution.ts to turn into a result.
 */
import { errorMessage, StoppedError } from '../errors.js';
import { type LinkedAbort, linkAbort } from '../abort.js';
import { hasTimeout, withDeadline } from '../deadline.js';
import type { Tool } from './tool.js';
import type { Clock } from '../clock.js';

export type ExecutionOutcome =
  { kind: 'output'; output: string } | { kind: 'threw'; message: string } | { kind: 'timed-out'; timeoutMs: number } | { kind: 'stopped' };

/**
 * Runs `execute` under the run's signal and the call's timeout (withDeadline, the engine's one deadline).
 * A timeout or stop settles the call at once and aborts the tool's signal; a tool that ignores its signal
 * is left behind, its late answer dropped.
 */
/** What the deadline settles a call with when it passes first. */
const timedOut = Symbol('timed out');

export function runWithLimits(
  tool: Tool,
  input: unknown,
  toolCallId: string,
  options: { runSignal: AbortSignal; clock: Clock; defaultTimeoutMs: number },
): Promise<ExecutionOutcome> {
  const timeoutMs = tool.timeoutMs ?? options.defaultTimeoutMs;
  // A signal of the call's own only where a timeout may abort the call alone; otherwise the turn's serves.
  const link: LinkedAbort = hasTimeout(timeoutMs) ? linkAbort(options.runSignal) : unlinked(options.runSignal);
  let execution: Promise<string>;
  try {
    execution = tool.execute(input, { signal: link.signal, toolCallId });
  } catch (error) {
    execution = Promise.reject(error);
  }
  // Over the tool's own promise, no step between: a tool that has answered wins over a later stop.
  return withDeadline<string | typeof timedOut>(execution, {
    clock: options.clock,
    timeoutMs,
    signal: options.runSignal,
    expire: () => {
      link.abort(new StoppedError({ kind: 'budget', detail: `the ${tool.name} call passed its timeout of ${timeoutMs} ms` }));
      return timedOut;
    },
  }).then(
    (output): ExecutionOutcome => {
      link.dispose();
      return output === timedOut ? { kind: 'timed-out', timeoutMs } : { kind: 'output', output: asText(output) };
    },
    // A stop of the run settles the call at once (withDeadline's listener), before the tool's own rejection.
    (error: unknown): ExecutionOutcome => {
      link.dispose();
      return options.runSignal.aborted ? { kind: 'stopped' } : { kind: 'threw', message: errorMessage(error) };
    },
  );
}

/** Tools are typed to return text; a plain-JS tool returning something else must not break the provider request. */
function asText(output: unknown): string {
  if (typeof output === 'string') return output;
  return JSON.stringify(output) ?? String(output);
}

/** The run's own signal, as a call's when the call cannot be aborted alone (no timeout). */
function unlinked(signal: AbortSignal): LinkedAbort {
  return {
    signal,
    abort: () => {
      throw new Error('a call without a timeout has no signal of its own to abort');
    },
    dispose: () => {},
  };
}
