import { setMaxListeners } from 'node:events';
import type { Clock } from '../clock.js';
import { stopReasonOf } from '../errors.js';
import { linkAbort } from '../abort.js';
import type { ModelStreamEvent } from '../model/types.js';
import { runWithLimits } from './tool-call-limits.js';
import { truncateToolOutput } from './result-limits.js';
import type { Tool } from './tool.js';
import {
  invalidInputText,
  invalidJsonText,
  toolCallLimitText,
  toolFailedText,
  toolStoppedText,
  toolTimedOutText,
  unknownToolText,
} from './tool-results.js';

export type ToolCallEvent = Extract<ModelStreamEvent, { type: 'tool-call' }>;

/** What one tool call produced; errors are results too, for the model to act on. */
export interface ToolCallResult {
  toolCallId: string;
  toolName: string;
  output: string;
  isError: boolean;
  /** Set when the call was to a tool that ends the run (`Tool.endsRun`) and succeeded. */
  ending?: RunEnding;
}

/** The call that ended a run, and the run's output it gave. */
export interface RunEnding {
  toolName: string;
  /** The call's input, as its schema parsed it. */
  input: unknown;
  output: string;
}

export interface ToolExecutionOptions {
  /** The run's tools by name. */
  tools: ReadonlyMap<string, Tool>;
  /** The run's signal: aborting it stops every running call, each answered "stopped: …". */
  runSignal: AbortSignal;
  clock: Clock;
  /** Used when a tool has no `timeoutMs` of its own. 0 or Infinity: no timeout. */
  defaultTimeoutMs: number;
  /** Calls past this many in one turn are answered with an error result, not run. 0 or Infinity: no limit. */
  maxCallsPerTurn: number;
  /** A result (error texts included) longer than this many UTF-8 bytes is cut, with a note. 0 or Infinity: no limit. */
  maxResultBytes: number;
  /** Applied to every result where it enters (AgentRunOptions.secrets). */
  redact?: (text: string) => string;
  /** Calls not to run, by id, each with the error text the model gets instead. Default: none. */
  refused?: ReadonlyMap<string, string>;
}

/**
 * Runs one turn's tool calls in parallel and returns their results in call order, one per call. `onResult`
 * hears each result as it arrives (completion order), so a live transcript doesn't wait for the slowest
 * call. Calls past `maxCallsPerTurn` are not run: each gets an error result naming the limit.
 */
export async function executeToolCalls(
  calls: readonly ToolCallEvent[],
  options: ToolExecutionOptions,
  onResult: (result: ToolCallResult) => void,
): Promise<ToolCallResult[]> {
  const limit = options.maxCallsPerTurn;
  const overLimit = (position: number) => Number.isFinite(limit) && limit > 0 && position > limit;
  // Several calls: one listener on the run's signal for the whole turn; the turn's signal has one per
  // call, which for a wide turn passes Node's warning threshold of 10 without being a leak. A single call
  // listens on the run's signal itself (an AbortController costs ~9 µs on Node 20: B1 in docs/performance.md).
  const turn = calls.length > 1 ? linkAbort(options.runSignal) : undefined;
  if (turn) setMaxListeners(0, turn.signal);
  const turnOptions = turn ? { ...options, runSignal: turn.signal } : options;
  try {
    return await Promise.all(
      calls.map(async (call, index) => {
        const refusal = options.refused?.get(call.toolCallId);
        const result =
          refusal !== undefined
            ? resultOf(call, truncateToolOutput((options.redact ?? ((text: string) => text))(refusal), options.maxResultBytes), true)
            : overLimit(index + 1)
              ? resultOf(call, toolCallLimitText(call.toolName, index + 1, limit), true)
              : await executeToolCall(call, turnOptions);
        onResult(result);
        return result;
      }),
    );
  } finally {
    turn?.dispose();
  }
}

/** Validates and runs one call. Never throws: every outcome becomes a result. */
export async function executeToolCall(call: ToolCallEvent, options: ToolExecutionOptions): Promise<ToolCallResult> {
  // Cut where the output enters: the transcript, the events and the conversation all hold the cut text.
  const redact = options.redact ?? ((text: string) => text);
  const answer = (output: string, isError: boolean): ToolCallResult =>
    resultOf(call, truncateToolOutput(redact(output), options.maxResultBytes), isError);
  if (options.runSignal.aborted) return answer(toolStoppedText(stopReasonOf(options.runSignal)), true);
  const tool = options.tools.get(call.toolName);
  if (!tool) return answer(unknownToolText(call.toolName, [...options.tools.keys()]), true);
  if (call.inputError !== undefined) return answer(invalidJsonText(tool.name, call.inputError), true);
  const parsed = tool.inputSchema.safeParse(call.input);
  if (!parsed.success) return answer(invalidInputText(tool.name, parsed.error.issues), true);

  const outcome = await runWithLimits(tool, parsed.data, call.toolCallId, options);
  switch (outcome.kind) {
    case 'output': {
      const result = answer(outcome.output, false);
      return tool.endsRun ? { ...result, ending: { toolName: tool.name, input: parsed.data, output: tool.endsRun(parsed.data) } } : result;
    }
    case 'threw':
      return answer(toolFailedText(tool.name, outcome.message), true);
    case 'timed-out':
      return answer(toolTimedOutText(tool.name, outcome.timeoutMs), true);
    case 'stopped':
      return answer(toolStoppedText(stopReasonOf(options.runSignal)), true);
  }
}

function resultOf(call: ToolCallEvent, output: string, isError: boolean): ToolCallResult {
  return { toolCallId: call.toolCallId, toolName: call.toolName, output, isError };
}
