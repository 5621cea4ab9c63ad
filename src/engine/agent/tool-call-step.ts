/** A step's tool calls: reviewed, run, their results recorded, and what follows them heard. */
import { stopReasonOf } from '../errors.js';
import type { ConversationRecorder } from './conversation-recorder.js';
import { executeToolCalls, type ToolCallEvent, type ToolCallResult, type ToolExecutionOptions } from './tool-execution.js';
import { toolStoppedText } from './tool-results.js';
import type { AgentRunOptions } from './types.js';

/**
 * Runs a turn's tool calls (those the review lets through) and records their results; `stopped` when the
 * run was stopped during the review, every call then answered "stopped". The notices of `afterToolCalls`
 * go to the model unless a call ended the run.
 */
export async function toolCallsRun(
  calls: readonly ToolCallEvent[],
  options: Pick<AgentRunOptions, 'reviewToolCalls' | 'afterToolCalls' | 'signal'>,
  execution: ToolExecutionOptions,
  run: ConversationRecorder,
  redact: (text: string) => string,
): Promise<ToolCallResult[] | 'stopped'> {
  const refused = options.reviewToolCalls ? await options.reviewToolCalls(calls, options.signal) : undefined;
  if (options.signal.aborted) {
    run.answerUnrunCalls(calls, toolStoppedText(stopReasonOf(options.signal)));
    return 'stopped';
  }
  const results = await executeToolCalls(calls, refused ? { ...execution, refused } : execution, (result) => run.recordToolResult(result));
  run.addToolResults(results);
  if (options.afterToolCalls) {
    const finished = results.map((result, index) => ({ ...result, input: calls[index]?.input }));
    const notices = await options.afterToolCalls(finished, options.signal);
    if (!results.some((result) => result.ending !== undefined)) run.addNotices(notices.map(redact));
  }
  return results;
}
