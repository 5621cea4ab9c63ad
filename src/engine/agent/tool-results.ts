import type { z } from 'zod';
import { describeStopReason, type StopReason } from '../errors.js';

/**
 * The texts of the error results the model reads back. Each says what went wrong and what to do next,
 * because the model acts on them: a wrong field name is fixed on the next turn instead of failing the run.
 */

export function unknownToolText(toolName: string, availableNames: readonly string[]): string {
  const available = availableNames.length > 0 ? `Available tools: ${availableNames.join(', ')}.` : 'This agent has no tools.';
  return `Unknown tool "${toolName}". ${available}`;
}

/** `inputError` comes from the model adapter, e.g. "the tool input is not valid JSON (…)". */
export function invalidJsonText(toolName: string, inputError: string): string {
  return `Tool "${toolName}" was not run: ${inputError}. Call it again with a JSON object as input.`;
}

export function invalidInputText(toolName: string, issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues.map((issue) => `- ${formatIssuePath(issue.path)}: ${issue.message}`);
  return [`Tool "${toolName}" was not run: its input does not match the schema.`, ...lines, 'Fix these fields and call it again.'].join(
    '\n',
  );
}

export function toolFailedText(toolName: string, message: string): string {
  return `Tool "${toolName}" failed: ${message}`;
}

export function toolTimedOutText(toolName: string, timeoutMs: number): string {
  return `Tool "${toolName}" timed out after ${timeoutMs} ms and was stopped.`;
}

/** The result of a call that the run's stop interrupted or prevented. */
export function toolStoppedText(reason: StopReason): string {
  return `stopped: ${describeStopReason(reason)}`;
}

/** The result of a call the model streamed in a turn that then failed, so the call never ran. */
export function toolNotRunText(failure: string): string {
  return `not run: the model request failed (${failure})`;
}

/** The result of a call past the turn's limit: not run, and the model is told how to go on. */
export function toolCallLimitText(toolName: string, position: number, maxCallsPerTurn: number): string {
  return `Tool "${toolName}" was not run: this was call ${position} of the turn, and a turn may make at most ${maxCallsPerTurn} tool calls. Make the calls that are still needed in your next turn.`;
}

/** Ends a result cut to the per-result limit. */
export function truncatedResultNote(keptBytes: number, totalBytes: number, maxBytes: number): string {
  return `\n\n[Agent Team: output truncated to its first ${keptBytes} of ${totalBytes} bytes (a tool result keeps at most ${maxBytes} bytes). Ask for less at a time: a line range of a file, a narrower pattern or path.]`;
}

/** Stands in for an old result dropped to keep the conversation's tool output within its limit. */
export function elidedResultText(toolName: string, bytes: number, maxTotalBytes: number): string {
  return `[Agent Team: this ${toolName} result (${bytes} bytes) was removed to keep the conversation's tool output under ${maxTotalBytes} bytes. Call the tool again if you still need it.]`;
}

/** `edits[0].old_string`; `(input)` for the input as a whole. */
function formatIssuePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(input)';
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}
