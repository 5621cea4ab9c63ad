/**
 * How full one agent's context window is: the size of its last request as the provider counted it (input
 * tokens, cache reads and writes included), plus an estimate of what was added since, against the window.
 * Costs one walk over the messages added since the last request (B18 in docs/performance.md).
 */
import type { ModelMessage } from '../../model/types.js';
import { defaultCompactAt } from './context-policy.js';
import { characterCount, estimatedTokens } from './token-estimate.js';

export class ContextMeter {
  /** Input tokens of the last request, as the provider counted them; 0 before the first. */
  private used = 0;
  /** Messages the last counted request held: what comes after them is estimated. */
  private countedMessages = 0;
  private window: number | undefined;

  constructor(
    windowTokens: number | undefined,
    private readonly compactAt: number = defaultCompactAt,
  ) {
    this.window = windowTokens;
  }

  get usedTokens(): number {
    return this.used;
  }

  get windowTokens(): number | undefined {
    return this.window;
  }

  /** The provider named the window in a context-length error: its own figure wins from now on. */
  learnWindow(windowTokens: number | undefined): void {
    if (windowTokens !== undefined && windowTokens > 0) this.window = windowTokens;
  }

  /** A request is about to go out with these messages. */
  requestSent(messages: readonly ModelMessage[]): void {
    this.pendingMessages = messages.length;
    this.pendingLastCharacters = characterCount(messages, messages.length - 1);
  }

  /** The provider counted the request's input: the figure the meter shows. */
  counted(inputTokens: number): void {
    if (inputTokens <= 0) return;
    this.used = inputTokens;
    this.countedMessages = this.pendingMessages;
    this.countedLastCharacters = this.pendingLastCharacters;
  }

  /** The conversation was replaced (compacted): until the provider counts again, `tokens` is the estimate. */
  replaced(tokens: number, messages: readonly ModelMessage[]): void {
    this.used = tokens;
    this.countedMessages = messages.length;
    this.countedLastCharacters = characterCount(messages, messages.length - 1);
  }

  /** The next request's size: the last count plus what was added since (the answer, tool results, notices). */
  estimateNext(messages: readonly ModelMessage[]): number {
    // A message counted may have gained parts since (notices join the pending user message): counted again.
    // Only its growth is added.
    const from = Math.max(0, Math.min(this.countedMessages, messages.length) - 1);
    const added = characterCount(messages, from) - (from < this.countedMessages ? this.countedLastCharacters : 0);
    return this.used + estimatedTokens(Math.max(0, added));
  }

  /** True when the next request would pass `compactAt` of a known window. */
  wantsCompaction(messages: readonly ModelMessage[]): boolean {
    return this.window !== undefined && this.used > 0 && this.estimateNext(messages) >= this.compactAt * this.window;
  }

  private pendingMessages = 0;
  private pendingLastCharacters = 0;
  /** The characters the last counted message had when counted. */
  private countedLastCharacters = 0;
}
