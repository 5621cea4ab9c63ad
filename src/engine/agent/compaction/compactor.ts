/**
 * Compaction inside one agent run: before a request that would pass `compactAt` of the window, after the
 * provider refused a request as too long (then the turn is tried once more), and on demand (`/compact`).
 * The task's own model writes the summary of the older turns (its tokens count as the task's); the task
 * and the last steps stay verbatim (conversation-split.ts). A failed summary leaves the conversation as it was.
 */
import { streamModelTurn } from '../model-turn.js';
import type { ConversationRecorder } from '../conversation-recorder.js';
import type { Model } from '../../model/types.js';
import { ContextMeter } from './context-meter.js';
import type { AgentContextOptions, CompactionTrigger } from './context-options.js';

export type { AgentContextOptions, CompactionTrigger } from './context-options.js';
import { compactedConversation, defaultKeepTurns, splitConversation } from './conversation-split.js';
import { summaryRequestText, summarySystem } from './summary-prompt.js';
import { characterCount, charactersPerToken, estimatedTokens } from './token-estimate.js';

export type CompactionOutcome = { compacted: true; beforeTokens: number; afterTokens: number } | { compacted: false; reason: string };

/** The window assumed for sizing a summary request when no window is known: a small model's. */
const fallbackWindowTokens = 100_000;

/** Turns without a compaction ahead of time after one that failed. */
const autoPauseTurns = 3;

export class Compactor {
  readonly meter: ContextMeter;
  private autoPause = 0;

  constructor(
    private readonly model: Model,
    private readonly run: ConversationRecorder,
    private readonly options: AgentContextOptions = {},
  ) {
    this.meter = new ContextMeter(options.windowTokens, options.compactAt);
  }

  /** Before a request: compacts when asked to (`/compact`) or when the request would pass `compactAt`. */
  async beforeRequest(signal: AbortSignal): Promise<void> {
    const focus = this.options.takeCompactionRequest?.();
    if (focus !== undefined) await this.compact('manual', signal, focus);
    else if (this.autoPause > 0) this.autoPause -= 1;
    else if (this.meter.wantsCompaction(this.run.messages)) {
      const outcome = await this.compact('auto', signal);
      // A summary that failed is not asked for again at once: each try is a model call (a refusal still compacts).
      if (!outcome.compacted) this.autoPause = autoPauseTurns;
    }
    this.meter.requestSent(this.run.messages);
  }

  /** The provider counted a request: the meter shows it, and the run's listeners hear of it. */
  counted(inputTokens: number): void {
    if (inputTokens <= 0) return;
    this.meter.counted(inputTokens);
    this.run.contextMeasured(this.meter.usedTokens, this.meter.windowTokens);
  }

  /**
   * Summarises the older turns and goes on with the task, the summary and the last steps. After a refusal
   * (`overflow`) fewer steps are kept verbatim, since they may be what did not fit.
   */
  async compact(trigger: CompactionTrigger, signal: AbortSignal, focus?: string, refusedTokens?: number): Promise<CompactionOutcome> {
    const messages = this.run.messages;
    let split = splitConversation(messages, trigger === 'overflow' ? 1 : defaultKeepTurns);
    if (split.older.length === 0 || this.tooBigToKeep(split.recent)) split = splitConversation(messages, 0);
    if (split.older.length === 0 && split.earlierSummary === undefined)
      return { compacted: false, reason: 'there are no earlier steps to summarise yet' };
    await this.options.beforeCompaction?.(trigger, signal);
    if (signal.aborted) return { compacted: false, reason: 'the run was stopped' };
    const window = this.meter.windowTokens ?? fallbackWindowTokens;
    // The summary request gets half the window: the summary and the request's own overhead need the rest.
    const request = summaryRequestText(split, Math.floor((window * charactersPerToken) / 2), focus);
    const output = await streamModelTurn(
      this.model,
      { system: summarySystem, messages: [{ role: 'user', content: [{ type: 'text', text: request.text }] }], tools: [] },
      signal,
      () => {},
    );
    this.run.addUsage(output.usage);
    if (output.end.kind === 'stopped') return { compacted: false, reason: 'the run was stopped' };
    if (output.end.kind === 'failed') return { compacted: false, reason: `the summary could not be written: ${output.end.message}` };
    const summary = output.text.trim();
    if (summary === '') return { compacted: false, reason: 'the model wrote an empty summary' };
    const compacted = compactedConversation(split, summary);
    const beforeTokens = Math.max(refusedTokens ?? 0, this.meter.estimateNext(messages));
    const afterTokens = Math.max(1, beforeTokens - estimatedTokens(characterCount(messages)) + estimatedTokens(characterCount(compacted)));
    this.run.replaceConversation(compacted, { beforeTokens, afterTokens, summary, trigger });
    this.meter.replaced(afterTokens, this.run.messages);
    this.run.contextMeasured(afterTokens, this.meter.windowTokens);
    return { compacted: true, beforeTokens, afterTokens };
  }

  /** The last steps alone would take more than half the window: they are summarised too. */
  private tooBigToKeep(recent: Parameters<typeof characterCount>[0]): boolean {
    const window = this.meter.windowTokens;
    return window !== undefined && estimatedTokens(characterCount(recent)) > window / 2;
  }
}
