import { systemClock } from '../clock.js';
import { stopReasonOf } from '../errors.js';
import { withoutImages } from '../model/image-parts.js';
import type { ModelMessage } from '../model/types.js';
import { initialMessages, isEmptyPrompt } from './messages.js';
import { streamModelTurn } from './model-turn.js';
import { Compactor } from './compaction/compactor.js';
import { compactionAnswer, takeTrailingCompact } from './compaction/compact-command.js';
import { ConversationRecorder } from './conversation-recorder.js';
import { toToolDefinition, type Tool } from './tool.js';
import { redactKnownSecrets, secretValues } from '../secrets.js';
import type { ToolExecutionOptions } from './tool-execution.js';
import { toolNotRunText, toolStoppedText } from './tool-results.js';
import { compactNow, endedRun, runStopConditions } from './run-ending.js';
import { decideStep } from './stop-conditions.js';
import { toolCallsRun } from './tool-call-step.js';
import type { AgentRunOptions, AgentRunResult } from './types.js';

export const defaultMaxTurns = 50;
export const defaultToolTimeoutMs = 120_000;
export const defaultMaxToolCallsPerTurn = 16;
export const defaultMaxToolResultBytes = 64 * 1024;
export const defaultMaxConversationToolResultBytes = 1024 * 1024;

/**
 * Runs the agent loop: the model answers, its tool calls run, their results go back, until the model
 * answers without tool calls. Expected endings (a stop, a provider failure, the turn limit) are results,
 * never throws; only bugs (a model adapter throwing something other than an `AgentTeamError`, a throwing
 * `onEvent`) escape.
 */
export async function runAgent(options: AgentRunOptions): Promise<AgentRunResult> {
  const conditions = runStopConditions(options, options.maxTurns ?? defaultMaxTurns);
  const images = seenImages(options);
  const run = new ConversationRecorder(images.messages, {
    onEvent: options.onEvent,
    maxToolResultBytes: options.maxConversationToolResultBytes ?? defaultMaxConversationToolResultBytes,
  });
  if (images.replaced > 0)
    run.addUserNotice(
      `The model ${options.model.provider}/${options.model.modelId} does not accept images: ${images.replaced === 1 ? 'the image was' : `${images.replaced} images were`} not sent; the agent was told of ${images.replaced === 1 ? 'it' : 'them'} instead.`,
    );
  if (isEmptyPrompt(options.prompt)) return run.failed('The prompt is empty: give the agent a task to work on.');
  const duplicate = duplicateName(options.tools);
  if (duplicate !== undefined) return run.failed(`Two tools are named "${duplicate}": tool names must be unique.`);

  const toolDefinitions = options.tools.map(toToolDefinition);
  const execution: ToolExecutionOptions = {
    tools: toolsByName(options.tools),
    runSignal: options.signal,
    clock: options.clock ?? systemClock,
    defaultTimeoutMs: options.toolTimeoutMs ?? defaultToolTimeoutMs,
    maxCallsPerTurn: options.maxToolCallsPerTurn ?? defaultMaxToolCallsPerTurn,
    maxResultBytes: options.maxToolResultBytes ?? defaultMaxToolResultBytes,
    ...(options.secrets ? { redact: (text: string) => redactKnownSecrets(text, secretValues(options.secrets?.() ?? [])) } : {}),
  };

  // Notices enter the conversation as tool results do: with the secrets replaced (a hook may print one).
  const redact = execution.redact ?? ((text: string) => text);
  // No context options (a bare loop, a test): no meter and no compaction; a context-length error fails the run.
  const compactor = options.context ? new Compactor(options.model, run, options.context) : undefined;
  const modelTurn = () => {
    run.startTurn();
    return streamModelTurn(
      options.model,
      { system: options.system, messages: [...run.messages], tools: toolDefinitions, maxOutputTokens: options.maxOutputTokens },
      options.signal,
      (text) => run.textDelta(text),
      (model, notice) => run.modelSwitched(model, notice),
    );
  };
  // A follow-up that is only `/compact`: the conversation is compacted, and that is the answer.
  const compactOnly = typeof options.prompt === 'string' || !compactor ? undefined : takeTrailingCompact(run.messages);
  if (compactor && compactOnly !== undefined)
    return run.completed(compactionAnswer(await compactor.compact('manual', options.signal, compactOnly)));
  for (let turn = 1; ; turn++) {
    if (options.signal.aborted) return run.stopped(stopReasonOf(options.signal));
    if (turn > 1) run.addNotices((options.takeNotices?.() ?? []).map(redact));

    await compactor?.beforeRequest(options.signal);
    if (options.signal.aborted) return run.stopped(stopReasonOf(options.signal));
    let output = await modelTurn();
    const tooLong = output.end.kind === 'failed' ? output.end.contextLength : undefined;
    if (tooLong && compactor) {
      // Too long for the window: compacted, and the turn tried once more. A second refusal fails the run.
      run.recordTurn(output.text, output.toolCalls, output.usage);
      compactor.meter.learnWindow(tooLong.windowTokens);
      const compaction = await compactor.compact('overflow', options.signal, undefined, tooLong.usedTokens);
      if (options.signal.aborted) return run.stopped(stopReasonOf(options.signal));
      if (!compaction.compacted)
        return run.failed(`${(output.end as { message: string }).message}. The conversation could not be compacted: ${compaction.reason}.`);
      compactor.meter.requestSent(run.messages);
      output = await modelTurn();
      if (output.end.kind === 'failed' && output.end.contextLength) {
        run.recordTurn(output.text, output.toolCalls, output.usage);
        return run.failed(
          `The conversation does not fit the context window of ${options.model.provider}/${options.model.modelId} even after it was compacted (${compaction.beforeTokens} → ${compaction.afterTokens} tokens): ${output.end.message}. Its transcript and proposals are kept; use a model with a larger window, or give the task in smaller parts.`,
        );
      }
    }
    // The figure first: the usage event that follows carries it to the task's snapshot.
    compactor?.counted(output.usage.inputTokens);
    run.recordTurn(output.text, output.toolCalls, output.usage);

    if (output.end.kind === 'stopped') {
      run.answerUnrunCalls(output.toolCalls, toolStoppedText(output.end.reason));
      return run.stopped(output.end.reason);
    }
    if (output.end.kind === 'failed') {
      run.answerUnrunCalls(output.toolCalls, toolNotRunText(output.end.message));
      return run.failed(output.end.message);
    }
    const results = output.toolCalls.length === 0 ? [] : await toolCallsRun(output.toolCalls, options, execution, run, redact);
    if (results === 'stopped') return run.stopped(stopReasonOf(options.signal));
    const outcome = await decideStep(conditions, {
      turn,
      answer: run.latestAnswer(),
      toolCalls: results,
      signal: options.signal,
      ...(compactor ? { compact: (focus: string) => compactNow(compactor, run, focus, options.signal) } : {}),
    });
    if (outcome.kind === 'stopped') return run.stopped(stopReasonOf(options.signal));
    if (outcome.goOn) {
      if ('resume' in outcome.goOn) run.addNotices([redact(outcome.goOn.resume)]);
      else run.addUserMessage(outcome.goOn.reply);
    }
    if (outcome.kind === 'end') return endedRun(run, outcome.stop, redact);
  }
}

/** The first turn's conversation, with images replaced by notes for a model that does not see them. */
function seenImages(options: AgentRunOptions): { messages: ModelMessage[]; replaced: number } {
  const messages = initialMessages(options.prompt);
  return options.model.acceptsImages
    ? { messages, replaced: 0 }
    : withoutImages(messages, `${options.model.provider}/${options.model.modelId}`);
}

function toolsByName(tools: readonly Tool[]): Map<string, Tool> {
  return new Map(tools.map((tool) => [tool.name, tool]));
}

/** Providers reject a request with two tools of one name, so the run refuses before the first turn. */
function duplicateName(tools: readonly Tool[]): string | undefined {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) return tool.name;
    seen.add(tool.name);
  }
  return undefined;
}
