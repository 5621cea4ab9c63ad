import type { StopReason } from '../errors.js';
import { addUsage, zeroUsage, type ModelMessage, type Usage } from '../model/types.js';
import { appendUserParts, assistantMessage, noticePart, toolResultPart } from './messages.js';
import { elideOldToolResults } from './result-limits.js';
import type { ToolCallEvent, ToolCallResult } from './tool-execution.js';
import type { AgentEvent, AgentRunResult, CompactionEvent, TranscriptEntry } from './types.js';

/**
 * The record of one agent run: the conversation, the transcript and the usage, kept in step with the events the
 * caller hears. The loop says what happened; this decides how it is written down.
 */
export class ConversationRecorder {
  readonly messages: ModelMessage[];
  private readonly transcript: TranscriptEntry[] = [];
  /** Each turn's text, including the partial text of a turn cut short. */
  private readonly turnTexts: string[] = [];
  private usage: Usage = zeroUsage;
  private turns = 0;

  private readonly onEvent: (event: AgentEvent) => void;
  private readonly maxToolResultBytes: number;

  /**
   * `maxToolResultBytes`: all tool results in the conversation together, in UTF-8 bytes; past it the
   * oldest give way to a note. Also applied to the conversation given (a continued run). Default: none.
   */
  constructor(messages: ModelMessage[], options: { onEvent?: (event: AgentEvent) => void; maxToolResultBytes?: number } = {}) {
    this.messages = messages;
    this.onEvent = options.onEvent ?? (() => {});
    this.maxToolResultBytes = options.maxToolResultBytes ?? Infinity;
    elideOldToolResults(this.messages, this.maxToolResultBytes);
  }

  startTurn(): number {
    this.onEvent({ type: 'conversation', messages: this.messages });
    this.turns += 1;
    this.onEvent({ type: 'turn-start', turn: this.turns });
    return this.turns;
  }

  textDelta(text: string): void {
    this.onEvent({ type: 'text-delta', text });
  }

  /** The turn went on with another model (a failover): the user is told, the task learns the model's name. */
  modelSwitched(model: string, notice: string): void {
    this.addEntry({ type: 'notice', text: notice });
    this.onEvent({ type: 'model-switch', model });
  }

  /** Writes down what a turn streamed, ended or not: its text, its tool calls and its usage. */
  recordTurn(text: string, toolCalls: readonly ToolCallEvent[], usage: Usage): void {
    this.turnTexts.push(text);
    if (text !== '') this.addEntry({ type: 'text', text });
    for (const call of toolCalls) {
      // The transcript shows the user what the model sent, also when it was not valid JSON.
      const input = call.input === undefined ? call.rawInput : call.input;
      this.addEntry({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input });
    }
    const message = assistantMessage(text, toolCalls);
    if (message) {
      this.messages.push(message);
      this.onEvent({ type: 'conversation', messages: this.messages });
    }
    this.usage = addUsage(this.usage, usage);
    this.onEvent({ type: 'usage', usage, total: this.usage });
  }

  /** Tokens spent outside a turn (a compaction's summary): counted as the run's. */
  addUsage(usage: Usage): void {
    if (usage.inputTokens === 0 && usage.outputTokens === 0) return;
    this.usage = addUsage(this.usage, usage);
    this.onEvent({ type: 'usage', usage, total: this.usage });
  }

  /** How full the context window is (context-meter.ts). */
  contextMeasured(usedTokens: number, windowTokens: number | undefined): void {
    this.onEvent({ type: 'context', usedTokens, ...(windowTokens === undefined ? {} : { windowTokens }) });
  }

  /**
   * The conversation was compacted: replaced in place (the loop and the listeners hold this list), the
   * compaction told before the new conversation so a log can start the conversation over, and the user
   * shown the summary.
   */
  replaceConversation(messages: readonly ModelMessage[], compaction: Omit<CompactionEvent, 'type'>): void {
    this.messages.splice(0, this.messages.length, ...messages);
    this.onEvent({ type: 'compaction', ...compaction });
    this.addEntry({
      type: 'notice',
      text: `compacted: ${compaction.beforeTokens} → ${compaction.afterTokens} tokens\n\n${compaction.summary}`,
    });
    this.onEvent({ type: 'conversation', messages: this.messages });
  }

  /** A result as it arrives; `addToolResults` later puts all of a turn's results in the conversation. */
  recordToolResult(result: ToolCallResult): void {
    this.addEntry({
      type: 'tool-result',
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      output: result.output,
      isError: result.isError,
    });
  }

  /** One user message with the turn's results, in call order, so every tool call is answered. */
  addToolResults(results: readonly ToolCallResult[]): void {
    appendUserParts(this.messages, results.map(toolResultPart));
    elideOldToolResults(this.messages, this.maxToolResultBytes);
  }

  /** Answers calls that will never run (the turn was stopped or failed) so the conversation stays valid. */
  answerUnrunCalls(toolCalls: readonly ToolCallEvent[], output: string): void {
    const results = toolCalls.map((call) => ({ toolCallId: call.toolCallId, toolName: call.toolName, output, isError: true }));
    for (const result of results) this.recordToolResult(result);
    this.addToolResults(results);
  }

  /** Notices for the model join the pending user message (the tool results), never a second one. */
  addNotices(notices: readonly string[]): void {
    appendUserParts(this.messages, notices.map(noticePart));
    for (const notice of notices) this.addEntry({ type: 'notice', text: notice });
  }

  /** A notice for the user only: the transcript, not the conversation. */
  addUserNotice(text: string): void {
    this.addEntry({ type: 'notice', text });
  }

  completed(output: string = this.finalText()): AgentRunResult {
    return this.result('completed', output);
  }

  /** The text of the latest answer. */
  latestAnswer(): string {
    return this.finalText();
  }

  /** A message from the user: into the conversation, and the transcript as a notice. */
  addUserMessage(text: string): void {
    appendUserParts(this.messages, [{ type: 'text', text }]);
    this.addEntry({ type: 'notice', text: `The user: ${text}` });
  }

  stopped(stopReason: StopReason): AgentRunResult {
    return { ...this.result('stopped', this.textSoFar()), stopReason };
  }

  failed(error: string): AgentRunResult {
    return { ...this.result('failed', this.textSoFar()), error };
  }

  maxTurns(error: string): AgentRunResult {
    return { ...this.result('max-turns', this.textSoFar()), error };
  }

  private result(status: AgentRunResult['status'], output: string): AgentRunResult {
    this.onEvent({ type: 'conversation', messages: this.messages });
    return { status, output, usage: this.usage, turns: this.turns, messages: this.messages, transcript: this.transcript };
  }

  /**
   * The answer: the last turn's text. When that turn only ended the run without words (the model said it
   * all before its last tool calls), the most recent text, so a caller never gets an empty answer needlessly.
   */
  private finalText(): string {
    for (let index = this.turnTexts.length - 1; index >= 0; index--) {
      if (this.turnTexts[index] !== '') return this.turnTexts[index];
    }
    return '';
  }

  /** Everything the model wrote, for a run cut short: the caller sees how far it got. */
  private textSoFar(): string {
    return this.turnTexts.filter((text) => text !== '').join('\n\n');
  }

  private addEntry(entry: TranscriptEntry): void {
    this.transcript.push(entry);
    this.onEvent({ type: 'transcript', entry });
  }
}
